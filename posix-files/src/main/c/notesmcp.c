/*
 * libnotesmcp.so: the POSIX calls Java 17's standard library lacks, for the careful reads and the
 * descriptor-relative writes of posix-files (posix-files/NATIVE.md; docs/behaviour.md, "What holds
 * against other processes"). Loaded by notesmcp.files.Posix, which declares each
 * function and says what it is for.
 *
 * Rules every function keeps, so that each can be checked by reading it:
 *   - it returns a non-negative result or -errno, and never raises a Java exception itself;
 *   - a call interrupted by a signal (EINTR) is made again, except close (Linux releases the
 *     descriptor even then, so a retry could close a descriptor another thread just got);
 *   - a descriptor it opens is either returned or closed before it returns, on every path;
 *   - a name comes in as bytes without a terminator: it is copied into a buffer that is checked to
 *     be large enough and to hold no NUL, then terminated; a name that must be one component of a
 *     path (everything but the few functions that take a path) is also checked to hold no '/' and
 *     not to be "." or "..".
 * Stateless but for one fact learnt once (whether the kernel has openat2); any thread may call any
 * function at any time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <linux/openat2.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "notesmcp_files_Posix.h"

/* The layout of an attributes array: keep in step with Posix.java. */
enum {
  MODE,
  LINKS,
  OWNER,
  GROUP,
  DEVICE,
  INODE,
  SIZE,
  CHANGED,  /* status change time (ctime), nanoseconds since the epoch */
  MODIFIED, /* modification time (mtime), nanoseconds since the epoch */
  MOUNT,    /* the mount id (statx STATX_MNT_ID), or -1 when the kernel did not give it */
  ATTRIBUTES
};

/* How notes and records are opened: read only, never a link, never blocking on a FIFO or device,
 * never becoming a controlling terminal, never inherited by a child process. */
#define CAREFUL (O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)

/* How a folder is opened: a directory or nothing (a FIFO or device is refused before its open
 * routine runs), never a link. */
#define FOLDER (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* What openat2 adds for a folder: nothing above the start, no link of any kind, no mount point. */
#define BENEATH (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV)

/* Copies a Java byte[] into name[size] and terminates it; -errno if it cannot. */
static int bytes_of(JNIEnv *env, jbyteArray bytes, char *name, size_t size) {
  jsize length = (*env)->GetArrayLength(env, bytes);
  if (length <= 0 || (size_t)length >= size) {
    return -ENAMETOOLONG;
  }
  (*env)->GetByteArrayRegion(env, bytes, 0, length, (jbyte *)name);
  if (memchr(name, '\0', (size_t)length) != NULL) {
    return -EINVAL;
  }
  name[length] = '\0';
  return 0;
}

/* As bytes_of, for one component of a path: at most NAME_MAX bytes, no '/', not "." or "..". */
#define COMPONENT 256
static int component_of(JNIEnv *env, jbyteArray bytes, char name[COMPONENT]) {
  int problem = bytes_of(env, bytes, name, COMPONENT);
  if (problem != 0) {
    return problem;
  }
  if (strchr(name, '/') != NULL || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
    return -EINVAL;
  }
  return 0;
}

static jlong nanos(struct statx_timestamp t) {
  return (jlong)t.tv_sec * 1000000000LL + (jlong)t.tv_nsec;
}

static void put(JNIEnv *env, jlongArray attributes, const struct statx *st) {
  jlong values[ATTRIBUTES];
  values[MODE] = (jlong)st->stx_mode;
  values[LINKS] = (jlong)st->stx_nlink;
  values[OWNER] = (jlong)st->stx_uid;
  values[GROUP] = (jlong)st->stx_gid;
  values[DEVICE] = (jlong)makedev(st->stx_dev_major, st->stx_dev_minor);
  values[INODE] = (jlong)st->stx_ino;
  values[SIZE] = (jlong)st->stx_size;
  values[CHANGED] = nanos(st->stx_ctime);
  values[MODIFIED] = nanos(st->stx_mtime);
  values[MOUNT] = (st->stx_mask & STATX_MNT_ID) ? (jlong)st->stx_mnt_id : -1;
  (*env)->SetLongArrayRegion(env, attributes, 0, ATTRIBUTES, values);
}

/* statx of `name` in `dir` (or of `dir` itself when name is ""), never following a link. */
static int look(int dir, const char *name, struct statx *st) {
  int flags = AT_SYMLINK_NOFOLLOW | AT_STATX_SYNC_AS_STAT | (name[0] == '\0' ? AT_EMPTY_PATH : 0);
  int result;
  do {
    result = statx(dir, name, flags, STATX_BASIC_STATS | STATX_MNT_ID, st);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/* fstat of an open descriptor into `attributes`: 0 or -errno. */
static int look_at_descriptor(JNIEnv *env, int fd, jlongArray attributes) {
  struct statx st;
  int result = look(fd, "", &st);
  if (result == 0) {
    put(env, attributes, &st);
  }
  return result;
}

/* Keeps `fd` and returns it once its attributes are in `attributes`; else closes it: -errno. */
static jint keep_if_seen(JNIEnv *env, int fd, jlongArray attributes) {
  if (fd < 0) {
    return -errno;
  }
  int result = look_at_descriptor(env, fd, attributes);
  if (result != 0) {
    close(fd);
    return result;
  }
  return fd;
}

static int open_at(int dir, const char *name, int flags, mode_t mode) {
  int fd;
  do {
    fd = openat(dir, name, flags, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

/* openat2 with `resolve`: the descriptor, or -1 with errno (ENOSYS where the kernel lacks it). */
static int open_beneath(int dir, const char *path, int flags, __u64 resolve) {
  struct open_how how;
  memset(&how, 0, sizeof how);
  how.flags = (__u64)flags;
  how.resolve = resolve;
  long fd;
  do {
    fd = syscall(SYS_openat2, dir, path, &how, sizeof how);
  } while (fd < 0 && errno == EINTR);
  return (int)fd;
}

/* A directory by its absolute path, the last part never a link: its descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openDirectory(JNIEnv *env, jclass type,
                                                                 jbyteArray path,
                                                                 jlongArray attributes) {
  (void)type;
  char name[4096];
  int problem = bytes_of(env, path, name, sizeof name);
  if (problem != 0) {
    return problem;
  }
  return keep_if_seen(env, open_at(AT_FDCWD, name, FOLDER, 0), attributes);
}

/* Whether this kernel has openat2 (Linux 5.6+): 1, or 0. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_hasOpenat2(JNIEnv *env, jclass type) {
  (void)env;
  (void)type;
  int fd = open_beneath(AT_FDCWD, "/", FOLDER, 0);
  if (fd < 0) {
    return errno == ENOSYS ? 0 : 1;
  }
  close(fd);
  return 1;
}

/*
 * One folder `name` in the folder `dir`, opened O_DIRECTORY|O_NOFOLLOW, and its fstat: the
 * descriptor, or -errno. With `beneath` set it is opened by openat2 with RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV, so a mount point is refused by the
 * kernel itself (EXDEV); the caller sets it only where the kernel has openat2.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openFolderAt(JNIEnv *env, jclass type, jint dir,
                                                                jbyteArray file, jboolean beneath,
                                                                jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  int fd = beneath ? open_beneath(dir, name, FOLDER, BENEATH) : open_at(dir, name, FOLDER, 0);
  return keep_if_seen(env, fd, attributes);
}

/*
 * One folder `name` in `dir` as a place only (O_PATH|O_DIRECTORY|O_NOFOLLOW): a descriptor to
 * look names up from and fstat, which needs only search permission on the folder, not read
 * permission (the folders above a trusted file may be 0711). The descriptor, or -errno.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openPlaceAt(JNIEnv *env, jclass type, jint dir,
                                                               jbyteArray file,
                                                               jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  return keep_if_seen(env, open_at(dir, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0),
                      attributes);
}

/* The folder `dir` opened again (openat(dir, ".")): a new open file, with a position of its own
 * for a listing. The descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_reopenFolder(JNIEnv *env, jclass type, jint dir) {
  (void)env;
  (void)type;
  int fd = open_at(dir, ".", FOLDER, 0);
  return fd < 0 ? -errno : fd;
}

/*
 * A folder by a relative path of several components below `dir` ("Projects/2026/Q1"), in one
 * openat2 with the same resolve flags: no component may be a link, a mount point, "..", or lead
 * above `dir`. The descriptor, or -errno (-ENOSYS where the kernel lacks openat2).
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openFolderBeneath(JNIEnv *env, jclass type,
                                                                     jint dir, jbyteArray path,
                                                                     jlongArray attributes) {
  (void)type;
  char name[4096];
  int problem = bytes_of(env, path, name, sizeof name);
  if (problem != 0) {
    return problem;
  }
  if (name[0] == '/') {
    return -EINVAL;
  }
  return keep_if_seen(env, open_beneath(dir, name, FOLDER, BENEATH), attributes);
}

/* lstat of `name` in the directory `dir` (a link is described, never followed): 0 or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_statAt(JNIEnv *env, jclass type, jint dir,
                                                          jbyteArray file, jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  struct statx st;
  int result = look(dir, name, &st);
  if (result == 0) {
    put(env, attributes, &st);
  }
  return result;
}

/* fstat of an open descriptor (a file or a folder): 0 or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_stat(JNIEnv *env, jclass type, jint fd,
                                                        jlongArray attributes) {
  (void)type;
  return look_at_descriptor(env, fd, attributes);
}

/* The careful open of `name` in `dir`, and fstat of the descriptor: the descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openAt(JNIEnv *env, jclass type, jint dir,
                                                          jbyteArray file, jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  return keep_if_seen(env, open_at(dir, name, CAREFUL, 0), attributes);
}

/*
 * Reads from `fd` into buffer[offset, offset + length) until that range is full or the file ends:
 * the number of bytes read, or -errno. Short reads are read on from. The caller checks the range.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_read(JNIEnv *env, jclass type, jint fd,
                                                        jbyteArray buffer, jint offset,
                                                        jint length) {
  (void)type;
  char chunk[8192];
  jint total = 0;
  while (total < length) {
    size_t want = (size_t)(length - total) < sizeof chunk ? (size_t)(length - total) : sizeof chunk;
    ssize_t got = read(fd, chunk, want);
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return -errno;
    }
    if (got == 0) {
      break;
    }
    (*env)->SetByteArrayRegion(env, buffer, offset + total, (jsize)got, (const jbyte *)chunk);
    total += (jint)got;
  }
  return total;
}

/* Closes `fd` once: 0 or -errno. Never retried (see the rules above). */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_close(JNIEnv *env, jclass type, jint fd) {
  (void)env;
  (void)type;
  return close(fd) == 0 ? 0 : -errno;
}

/* The system's text for an error number, for messages. */
JNIEXPORT jstring JNICALL Java_notesmcp_files_Posix_describe(JNIEnv *env, jclass type,
                                                               jint error) {
  (void)type;
  char text[256];
  return (*env)->NewStringUTF(env, strerror_r(error, text, sizeof text));
}

/* The real-time clock (the one file times are stamped from), in nanoseconds since the epoch. */
JNIEXPORT jlong JNICALL Java_notesmcp_files_Posix_now(JNIEnv *env, jclass type) {
  (void)env;
  (void)type;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  return (jlong)now.tv_sec * 1000000000LL + (jlong)now.tv_nsec;
}

/* The effective user id, the one the kernel checks permissions against. */
JNIEXPORT jlong JNICALL Java_notesmcp_files_Posix_userId(JNIEnv *env, jclass type) {
  (void)env;
  (void)type;
  return (jlong)geteuid();
}

/* Whether fd is open on a terminal: 1 or 0 (isatty; a closed fd is no terminal). */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_isTerminal(JNIEnv *env, jclass type, jint fd) {
  (void)env;
  (void)type;
  return isatty((int)fd) ? 1 : 0;
}

/* Big-endian stores for the packed records below. */
static void put16(unsigned char *at, unsigned value) {
  at[0] = (unsigned char)(value >> 8);
  at[1] = (unsigned char)value;
}

static void put32(unsigned char *at, uint32_t value) {
  for (int i = 0; i < 4; i++) {
    at[i] = (unsigned char)(value >> (24 - 8 * i));
  }
}

static void put64(unsigned char *at, uint64_t value) {
  for (int i = 0; i < 8; i++) {
    at[i] = (unsigned char)(value >> (56 - 8 * i));
  }
}

struct linux_dirent64 {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/*
 * The next entries of the open folder `fd` (getdents64), packed into buffer as records of
 * [inode: 8][type (d_type): 1][name length: 2][name bytes], big-endian, "." and ".." left out:
 * the number of bytes packed, 0 at the end of the folder, or -errno. A record never takes more
 * room than the kernel's own, so whatever the kernel returns for a chunk of the buffer's size
 * fits; a buffer too small for the next entry gets -EINVAL (the folder's position is kept).
 */
#define ENTRIES_CHUNK 16384
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_readDirectory(JNIEnv *env, jclass type,
                                                                 jint fd, jbyteArray buffer) {
  (void)type;
  _Alignas(8) unsigned char raw[ENTRIES_CHUNK];
  unsigned char packed[ENTRIES_CHUNK];
  jsize capacity = (*env)->GetArrayLength(env, buffer);
  size_t want = (size_t)capacity < sizeof raw ? (size_t)capacity : sizeof raw;
  for (;;) {
    long got;
    do {
      got = syscall(SYS_getdents64, fd, raw, want);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) {
      return got == 0 ? 0 : -errno;
    }
    size_t length = 0;
    for (long at = 0; at < got;) {
      struct linux_dirent64 *entry = (struct linux_dirent64 *)(raw + at);
      at += entry->d_reclen;
      size_t name = strnlen(entry->d_name, 256);
      if ((name == 1 && entry->d_name[0] == '.') ||
          (name == 2 && entry->d_name[0] == '.' && entry->d_name[1] == '.')) {
        continue;
      }
      put64(packed + length, entry->d_ino);
      packed[length + 8] = entry->d_type;
      put16(packed + length + 9, (unsigned)name);
      memcpy(packed + length + 11, entry->d_name, name);
      length += 11 + name;
    }
    if (length > 0) {
      (*env)->SetByteArrayRegion(env, buffer, 0, (jsize)length, (const jbyte *)packed);
      return (jint)length;
    }
    /* only "." and "..": read on */
  }
}

/* Back to the folder's first entry, for a second listing through the same descriptor. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_rewindDirectory(JNIEnv *env, jclass type,
                                                                   jint fd) {
  (void)env;
  (void)type;
  return lseek(fd, 0, SEEK_SET) < 0 ? -errno : 0;
}

/* A new inotify instance, non-blocking and close-on-exec: its descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_watchInit(JNIEnv *env, jclass type) {
  (void)env;
  (void)type;
  int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

/*
 * Watches the open folder `folder` for `mask` (IN_* bits) through /proc/self/fd/N, so what is
 * watched is the folder opened, whatever its path is now; IN_ONLYDIR is always added. The watch
 * descriptor, or -errno.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_watchAdd(JNIEnv *env, jclass type, jint inotify,
                                                            jint folder, jint mask) {
  (void)env;
  (void)type;
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", (int)folder);
  int wd;
  do {
    wd = inotify_add_watch(inotify, path, (uint32_t)mask | IN_ONLYDIR);
  } while (wd < 0 && errno == EINTR);
  return wd < 0 ? -errno : wd;
}

/* Ends watch `wd`: 0 or -errno (EINVAL once the kernel has ended it itself, IN_IGNORED). */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_watchRemove(JNIEnv *env, jclass type,
                                                               jint inotify, jint wd) {
  (void)env;
  (void)type;
  return inotify_rm_watch(inotify, wd) == 0 ? 0 : -errno;
}

/*
 * The events waiting on `inotify`, packed into buffer as records of [watch: 4][mask: 4][cookie: 4]
 * [name length: 2][name bytes], big-endian (the kernel's NUL padding left out): the number of
 * bytes packed, -EAGAIN when none waits, or -errno. A buffer smaller than one event with the
 * longest name (16 + 256 bytes) may get -EINVAL.
 */
#define EVENTS_CHUNK 16384
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_watchRead(JNIEnv *env, jclass type,
                                                             jint inotify, jbyteArray buffer) {
  (void)type;
  _Alignas(struct inotify_event) unsigned char raw[EVENTS_CHUNK];
  unsigned char packed[EVENTS_CHUNK];
  jsize capacity = (*env)->GetArrayLength(env, buffer);
  size_t want = (size_t)capacity < sizeof raw ? (size_t)capacity : sizeof raw;
  ssize_t got;
  do {
    got = read(inotify, raw, want);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {
    return got == 0 ? 0 : -errno;
  }
  size_t length = 0;
  for (ssize_t at = 0; at < got;) {
    struct inotify_event *event = (struct inotify_event *)(raw + at);
    at += (ssize_t)(sizeof *event + event->len);
    size_t name = event->len == 0 ? 0 : strnlen(event->name, event->len);
    put32(packed + length, (uint32_t)event->wd);
    put32(packed + length + 4, event->mask);
    put32(packed + length + 8, event->cookie);
    put16(packed + length + 12, (unsigned)name);
    memcpy(packed + length + 14, event->name, name);
    length += 14 + name;
  }
  (*env)->SetByteArrayRegion(env, buffer, 0, (jsize)length, (const jbyte *)packed);
  return (jint)length;
}

/*
 * Waits at most `millis` (0: not at all) for `fd` to be readable: 1 if it is, 0 if the time
 * passed, or -errno. A signal does not lengthen the wait: it goes on for what is left.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_poll(JNIEnv *env, jclass type, jint fd,
                                                        jint millis) {
  (void)env;
  (void)type;
  struct timespec start, now;
  clock_gettime(CLOCK_MONOTONIC, &start);
  int left = millis < 0 ? 0 : millis;
  for (;;) {
    struct pollfd one = {.fd = fd, .events = POLLIN, .revents = 0};
    int ready = poll(&one, 1, left);
    if (ready >= 0) {
      return ready > 0 ? 1 : 0;
    }
    if (errno != EINTR) {
      return -errno;
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    long spent = (now.tv_sec - start.tv_sec) * 1000L + (now.tv_nsec - start.tv_nsec) / 1000000L;
    if (spent >= millis) {
      return 0;
    }
    left = (int)(millis - spent);
  }
}

/*
 * Creates `name` in `dir` exclusively (O_CREAT|O_EXCL|O_WRONLY|O_NOFOLLOW|O_CLOEXEC), mode 0600
 * (less if the umask says so): the descriptor, or -errno (-EEXIST if anything, even a dangling
 * link, is at the name).
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_createAt(JNIEnv *env, jclass type, jint dir,
                                                            jbyteArray file,
                                                            jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  int fd = open_at(dir, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
                   0600);
  return keep_if_seen(env, fd, attributes);
}

/* Writes buffer[offset, offset + length) to `fd`, all of it: `length`, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_write(JNIEnv *env, jclass type, jint fd,
                                                         jbyteArray buffer, jint offset,
                                                         jint length) {
  (void)type;
  char chunk[8192];
  jint total = 0;
  while (total < length) {
    jint want = length - total < (jint)sizeof chunk ? length - total : (jint)sizeof chunk;
    (*env)->GetByteArrayRegion(env, buffer, offset + total, want, (jbyte *)chunk);
    jint done = 0;
    while (done < want) {
      ssize_t wrote = write(fd, chunk + done, (size_t)(want - done));
      if (wrote < 0 && errno == EINTR) {
        continue;
      }
      if (wrote < 0) {
        return -errno;
      }
      done += (jint)wrote;
    }
    total += want;
  }
  return total;
}

/* fsync of a file or a folder: 0 or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_sync(JNIEnv *env, jclass type, jint fd) {
  (void)env;
  (void)type;
  int result;
  do {
    result = fsync(fd);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/* A second name `to` in `toDir` for the file `from` in `fromDir` (linkat, a link never followed):
 * 0 or -errno (-EEXIST if anything is at `to`). */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_linkAt(JNIEnv *env, jclass type, jint fromDir,
                                                          jbyteArray from, jint toDir,
                                                          jbyteArray to) {
  (void)type;
  char source[COMPONENT], target[COMPONENT];
  int problem = component_of(env, from, source);
  if (problem == 0) {
    problem = component_of(env, to, target);
  }
  if (problem != 0) {
    return problem;
  }
  int result;
  do {
    result = linkat(fromDir, source, toDir, target, 0);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/*
 * renameat2 of `from` in `fromDir` to `to` in `toDir`, with `flags` 0 (replace what is at `to`),
 * RENAME_NOREPLACE (1: -EEXIST if anything is there) or RENAME_EXCHANGE (2): 0 or -errno.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_renameAt(JNIEnv *env, jclass type, jint fromDir,
                                                            jbyteArray from, jint toDir,
                                                            jbyteArray to, jint flags) {
  (void)type;
  char source[COMPONENT], target[COMPONENT];
  int problem = component_of(env, from, source);
  if (problem == 0) {
    problem = component_of(env, to, target);
  }
  if (problem != 0) {
    return problem;
  }
  if (flags != 0 && flags != RENAME_NOREPLACE && flags != RENAME_EXCHANGE) {
    return -EINVAL;
  }
  int result;
  do {
    result = renameat2(fromDir, source, toDir, target, (unsigned)flags);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/* Removes the name `name` from `dir` (a folder, which must be empty, when `folder` is set):
 * 0 or -errno. A link is removed itself, never followed. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_unlinkAt(JNIEnv *env, jclass type, jint dir,
                                                            jbyteArray file, jboolean folder) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  int result;
  do {
    result = unlinkat(dir, name, folder ? AT_REMOVEDIR : 0);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/* A new folder `name` in `dir`, mode 0700 (less if the umask says so): 0 or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_makeFolderAt(JNIEnv *env, jclass type, jint dir,
                                                                jbyteArray file) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  int result;
  do {
    result = mkdirat(dir, name, 0700);
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/*
 * An exclusive lock on the open file `fd` (flock, held by the open file until it is closed):
 * with `wait` it waits for it; without, -EWOULDBLOCK if another holds it. 0 or -errno.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_lock(JNIEnv *env, jclass type, jint fd,
                                                        jboolean wait) {
  (void)env;
  (void)type;
  int result;
  do {
    result = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB));
  } while (result != 0 && errno == EINTR);
  return result == 0 ? 0 : -errno;
}

/*
 * Opens `name` in `dir` for writing, creating it 0600 if it is missing, never following a link and
 * never blocking (O_NONBLOCK: a FIFO put there fails with ENXIO instead of waiting for a reader),
 * and fstat's it: the descriptor, or -errno. For a lock file, which is never read or written.
 */
JNIEXPORT jint JNICALL Java_notesmcp_files_Posix_openLockAt(JNIEnv *env, jclass type, jint dir,
                                                              jbyteArray file,
                                                              jlongArray attributes) {
  (void)type;
  char name[COMPONENT];
  int problem = component_of(env, file, name);
  if (problem != 0) {
    return problem;
  }
  int fd = open_at(dir, name, O_CREAT | O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY,
                   0600);
  return keep_if_seen(env, fd, attributes);
}

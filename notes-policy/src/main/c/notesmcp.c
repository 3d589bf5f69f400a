/*
 * libnotesmcp.so: the few POSIX calls Java 17's standard library lacks, for the careful reads of
 * notes-policy (CONTRACT §3, issue 8): a non-blocking open that never follows a link, relative to a
 * directory descriptor, and fstat of that descriptor. Loaded by notesmcp.policy.Posix, which
 * declares each function and says what it is for.
 *
 * Rules every function keeps, so that each can be checked by reading it:
 *   - it returns a non-negative result or -errno, and never raises a Java exception itself;
 *   - a call interrupted by a signal (EINTR) is made again, except close (Linux releases the
 *     descriptor even then, so a retry could close a descriptor another thread just got);
 *   - a descriptor it opens is either returned or closed before it returns, on every path;
 *   - a name comes in as bytes without a terminator: it is copied into a buffer that is checked to
 *     be large enough and to hold no NUL, then terminated.
 * Stateless; any thread may call any function at any time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "notesmcp_policy_Posix.h"

/* The layout of an attributes array: keep in step with Posix.java. */
enum { MODE, LINKS, OWNER, DEVICE, INODE, SIZE, ATTRIBUTES };

/* How notes and records are opened: read only, never a link, never blocking on a FIFO or device,
 * never becoming a controlling terminal, never inherited by a child process. */
#define CAREFUL (O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY)

/* Copies a Java byte[] name into name[size] and terminates it; -errno if it cannot. */
static int name_of(JNIEnv *env, jbyteArray bytes, char *name, size_t size) {
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

static void put(JNIEnv *env, jlongArray attributes, const struct stat *st) {
  jlong values[ATTRIBUTES];
  values[MODE] = (jlong)st->st_mode;
  values[LINKS] = (jlong)st->st_nlink;
  values[OWNER] = (jlong)st->st_uid;
  values[DEVICE] = (jlong)st->st_dev;
  values[INODE] = (jlong)st->st_ino;
  values[SIZE] = (jlong)st->st_size;
  (*env)->SetLongArrayRegion(env, attributes, 0, ATTRIBUTES, values);
}

/* Opens `flags` at `name` relative to `dir`, then fstat's what was opened into `attributes`. */
static jint open_and_stat(JNIEnv *env, int dir, const char *name, int flags,
                          jlongArray attributes) {
  int fd;
  do {
    fd = openat(dir, name, flags);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    return -errno;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int error = errno;
    close(fd);
    return -error;
  }
  put(env, attributes, &st);
  return fd;
}

/* A directory by its absolute path, the last part never a link: its descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_policy_Posix_openDirectory(JNIEnv *env, jclass type,
                                                                 jbyteArray path,
                                                                 jlongArray attributes) {
  (void)type;
  char name[4096];
  int problem = name_of(env, path, name, sizeof name);
  if (problem != 0) {
    return problem;
  }
  return open_and_stat(env, AT_FDCWD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
                       attributes);
}

/* lstat of `name` in the directory `dir` (a link is described, never followed): 0 or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_policy_Posix_statAt(JNIEnv *env, jclass type, jint dir,
                                                          jbyteArray file, jlongArray attributes) {
  (void)type;
  char name[256];
  int problem = name_of(env, file, name, sizeof name);
  if (problem != 0) {
    return problem;
  }
  struct stat st;
  if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    return -errno;
  }
  put(env, attributes, &st);
  return 0;
}

/* The careful open of `name` in `dir`, and fstat of the descriptor: the descriptor, or -errno. */
JNIEXPORT jint JNICALL Java_notesmcp_policy_Posix_openAt(JNIEnv *env, jclass type, jint dir,
                                                          jbyteArray file, jlongArray attributes) {
  (void)type;
  char name[256];
  int problem = name_of(env, file, name, sizeof name);
  if (problem != 0) {
    return problem;
  }
  return open_and_stat(env, dir, name, CAREFUL, attributes);
}

/*
 * Reads from `fd` into buffer[offset, offset + length) until that range is full or the file ends:
 * the number of bytes read, or -errno. Short reads are read on from. The caller checks the range.
 */
JNIEXPORT jint JNICALL Java_notesmcp_policy_Posix_read(JNIEnv *env, jclass type, jint fd,
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
JNIEXPORT jint JNICALL Java_notesmcp_policy_Posix_close(JNIEnv *env, jclass type, jint fd) {
  (void)env;
  (void)type;
  return close(fd) == 0 ? 0 : -errno;
}

/* The system's text for an error number, for messages. */
JNIEXPORT jstring JNICALL Java_notesmcp_policy_Posix_describe(JNIEnv *env, jclass type,
                                                               jint error) {
  (void)type;
  char text[256];
  return (*env)->NewStringUTF(env, strerror_r(error, text, sizeof text));
}

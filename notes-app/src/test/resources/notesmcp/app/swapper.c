/*
 * A hostile local process for WorkspaceRaceIT: it changes what a workspace name is, as fast as it
 * can, until it is killed or its time is up. Built by the test with gcc; never shipped.
 *
 *   swapper exchange A B SECONDS
 *       renameat2(A, B, RENAME_EXCHANGE) over and over: each call swaps the two names atomically,
 *       so A is each of the two files in turn, and never missing.
 *   swapper cycle NAME STAGING SECRET NOTE_TEXT SECONDS
 *       plain rename(2)s of NAME in turn: a single-link regular file holding NOTE_TEXT, a symbolic
 *       link to SECRET, a hard link to SECRET, a directory, each moved in from STAGING and back
 *       out again, so the regular file comes back with the same inode each time.
 *   swapper link-cycle NAME SECRET NOTE_TEXT SECONDS
 *       the cycle that defeats a link count (see docs/behaviour.md, "What holds against other
 *       processes"): each thing is made at NAME's folder's .tmp and renamed over NAME, in turn a
 *       regular file holding NOTE_TEXT, a symbolic link to SECRET, a hard link to SECRET (which
 *       is then unlinked: the kernel drops the link count before the name leaves the folder), a
 *       directory (then removed).
 *   swapper fsync DIR SECONDS
 *       load on the file system's journal, as any local process can make it: writes 64 KiB to a
 *       file in DIR, fsyncs it, renames it over another, fsyncs DIR, over and over.
 *
 * It prints "ready" once its first change is done, and the number of changes made when it stops.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static time_t deadline;
static long changes;

static int time_is_up(void) {
  return (changes & 1023) < 8 && time(NULL) >= deadline;
}

static void fail(const char *what, const char *path) {
  fprintf(stderr, "swapper: %s %s: %s\n", what, path, strerror(errno));
  exit(2);
}

static void ready(void) {
  if (changes == 1) {
    printf("ready\n");
    fflush(stdout);
  }
}

static int exchange(const char *a, const char *b) {
  while (!time_is_up()) {
    if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0) fail("renameat2", a);
    changes++;
    ready();
  }
  return 0;
}

static void move(const char *from, const char *to) {
  if (rename(from, to) != 0) fail("rename", from);
  changes++;
  ready();
}

/* Each thing leaves NAME by the same kind of rename that brought it, so each keeps its inode. */
static int cycle(const char *name, const char *staging, const char *secret, const char *text) {
  char reg[4096], sym[4096], hard[4096], dir[4096];
  snprintf(reg, sizeof reg, "%s/regular", staging);
  snprintf(sym, sizeof sym, "%s/symlink", staging);
  snprintf(hard, sizeof hard, "%s/hardlink", staging);
  snprintf(dir, sizeof dir, "%s/directory", staging);
  size_t length = strlen(text);
  int fd = open(reg, O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0 || write(fd, text, length) != (ssize_t)length || close(fd) != 0) fail("write", reg);
  if (symlink(secret, sym) != 0) fail("symlink", sym);
  if (link(secret, hard) != 0) fail("link", hard);
  if (mkdir(dir, 0700) != 0) fail("mkdir", dir);
  if (unlink(name) != 0) fail("unlink", name);
  move(reg, name);
  while (!time_is_up()) {
    move(name, reg);
    move(sym, name);
    move(name, sym);
    move(hard, name);
    move(name, hard);
    move(dir, name);
    move(name, dir);
    move(reg, name);
  }
  return 0;
}

/* The folder part of `name` ("." if none) into `folder`. */
static void folder_of(const char *name, char *folder, size_t size) {
  const char *slash = strrchr(name, '/');
  if (slash == NULL) {
    snprintf(folder, size, ".");
  } else {
    snprintf(folder, size, "%.*s", (int)(slash - name), name);
  }
}

static int link_cycle(const char *name, const char *secret, const char *text) {
  char folder[4096], tmp[4200];
  folder_of(name, folder, sizeof folder);
  snprintf(tmp, sizeof tmp, "%s/.tmp", folder);
  size_t length = strlen(text);
  unlink(tmp);
  rmdir(tmp);
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || write(fd, text, length) != (ssize_t)length || close(fd) != 0) fail("write", tmp);
  while (!time_is_up()) {
    move(tmp, name);
    if (symlink(secret, tmp) != 0) fail("symlink", tmp);
    move(tmp, name);
    if (link(secret, tmp) != 0) fail("link", tmp);
    move(tmp, name);
    if (unlink(name) != 0) fail("unlink", name);
    changes++;
    if (mkdir(tmp, 0700) != 0) fail("mkdir", tmp);
    move(tmp, name);
    /* The next regular file is made while the directory stands, so the name is missing only
     * between the rmdir and the rename. */
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, text, length) != (ssize_t)length || close(fd) != 0) fail("write", tmp);
    if (rmdir(name) != 0) fail("rmdir", name);
    changes++;
  }
  /* Leave a regular note behind, as the cycle began. */
  move(tmp, name);
  return 0;
}

static int fsync_load(const char *dir) {
  char file[4096], other[4096];
  snprintf(file, sizeof file, "%s/load.%d", dir, (int)getpid());
  snprintf(other, sizeof other, "%s/load.%d.old", dir, (int)getpid());
  static char block[65536];
  memset(block, 'x', sizeof block);
  int folder = open(dir, O_RDONLY | O_DIRECTORY);
  if (folder < 0) fail("open", dir);
  while (!time_is_up()) {
    int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, block, sizeof block) != (ssize_t)sizeof block) fail("write", file);
    if (fsync(fd) != 0 || close(fd) != 0) fail("fsync", file);
    if (rename(file, other) != 0) fail("rename", file);
    if (fsync(folder) != 0) fail("fsync", dir);
    changes++;
    ready();
  }
  unlink(other);
  close(folder);
  return 0;
}

int main(int argc, char **argv) {
  int ok = 0;
  if (argc == 5 && strcmp(argv[1], "exchange") == 0) {
    deadline = time(NULL) + atoi(argv[4]);
    ok = exchange(argv[2], argv[3]) == 0;
  } else if (argc == 7 && strcmp(argv[1], "cycle") == 0) {
    deadline = time(NULL) + atoi(argv[6]);
    ok = cycle(argv[2], argv[3], argv[4], argv[5]) == 0;
  } else if (argc == 6 && strcmp(argv[1], "link-cycle") == 0) {
    deadline = time(NULL) + atoi(argv[5]);
    ok = link_cycle(argv[2], argv[3], argv[4]) == 0;
  } else if (argc == 4 && strcmp(argv[1], "fsync") == 0) {
    deadline = time(NULL) + atoi(argv[3]);
    ok = fsync_load(argv[2]) == 0;
  } else {
    fprintf(stderr,
            "usage: swapper exchange A B SECONDS | cycle NAME STAGING SECRET TEXT SECONDS"
            " | link-cycle NAME SECRET TEXT SECONDS | fsync DIR SECONDS\n");
    return 2;
  }
  printf("%ld changes\n", changes);
  return ok ? 0 : 1;
}

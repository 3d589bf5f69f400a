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

int main(int argc, char **argv) {
  int ok = 0;
  if (argc == 5 && strcmp(argv[1], "exchange") == 0) {
    deadline = time(NULL) + atoi(argv[4]);
    ok = exchange(argv[2], argv[3]) == 0;
  } else if (argc == 7 && strcmp(argv[1], "cycle") == 0) {
    deadline = time(NULL) + atoi(argv[6]);
    ok = cycle(argv[2], argv[3], argv[4], argv[5]) == 0;
  } else {
    fprintf(stderr, "usage: swapper exchange A B SECONDS | cycle NAME STAGING SECRET TEXT SECONDS\n");
    return 2;
  }
  printf("%ld changes\n", changes);
  return ok ? 0 : 1;
}

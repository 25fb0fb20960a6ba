// A preload library for the crash tests (Tests/SyncUpsCLITests/CrashTests.swift): it numbers
// the steps that make a save durable, in the order they happen across all threads (fsync,
// fdatasync, rename, unlink), and can SIGKILL the process at one of them. strace's injection
// cannot do this: it counts calls per syscall and per thread.
//
//   SYNCUPS_STEP_LOG=FILE      appends "N call path" for every step
//   SYNCUPS_KILL_AT_STEP=N     SIGKILLs the process at step N ...
//   SYNCUPS_KILL_WHEN=before   ... before the call (default: after it returned)
//
// Build: cc -shared -fPIC -o kill-at-step.so kill-at-step.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int steps;
static int kill_at = -1;
static int kill_before = 0;
static const char *log_path;

__attribute__((constructor)) static void setup(void) {
  const char *at = getenv("SYNCUPS_KILL_AT_STEP");
  const char *when = getenv("SYNCUPS_KILL_WHEN");
  if (at) kill_at = atoi(at);
  kill_before = when && strcmp(when, "before") == 0;
  log_path = getenv("SYNCUPS_STEP_LOG");
}

static void describe_fd(int fd, char *path, size_t size) {
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, path, size - 1);
  path[length < 0 ? 0 : length] = 0;
}

static void note(int step, const char *call, const char *path) {
  if (!log_path) return;
  char line[PATH_MAX + 64];
  int length = snprintf(line, sizeof line, "%d %s %s\n", step, call, path);
  int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  // One write(2) per line with O_APPEND: lines of different threads never mix.
  ssize_t written = write(fd, line, (size_t)length);
  (void)written;
  close(fd);
}

static int begin(const char *call, const char *path) {
  int step = atomic_fetch_add(&steps, 1) + 1;
  note(step, call, path);
  if (step == kill_at && kill_before) raise(SIGKILL);
  return step;
}

static void end(int step) {
  if (step == kill_at && !kill_before) raise(SIGKILL);
}

typedef int (*fd_call)(int);
typedef int (*path_call)(const char *);
typedef int (*rename_call)(const char *, const char *);
typedef int (*renameat_call)(int, const char *, int, const char *);
typedef int (*renameat2_call)(int, const char *, int, const char *, unsigned);
typedef int (*unlinkat_call)(int, const char *, int);

// The C library's own function of that name, looked up once.
#define REAL(name, type) \
  static type real; \
  if (!real) real = (type)dlsym(RTLD_NEXT, name)

// A step around a call on a file descriptor, named by the file it refers to.
static int fd_step(const char *name, fd_call real, int fd) {
  char path[PATH_MAX];
  describe_fd(fd, path, sizeof path);
  int step = begin(name, path);
  int result = real(fd);
  end(step);
  return result;
}

int fsync(int fd) {
  REAL("fsync", fd_call);
  return fd_step("fsync", real, fd);
}

int fdatasync(int fd) {
  REAL("fdatasync", fd_call);
  return fd_step("fdatasync", real, fd);
}

int rename(const char *from, const char *to) {
  REAL("rename", rename_call);
  int step = begin("rename", to);
  int result = real(from, to);
  end(step);
  return result;
}

int renameat(int from_dir, const char *from, int to_dir, const char *to) {
  REAL("renameat", renameat_call);
  int step = begin("renameat", to);
  int result = real(from_dir, from, to_dir, to);
  end(step);
  return result;
}

int renameat2(int from_dir, const char *from, int to_dir, const char *to, unsigned flags) {
  REAL("renameat2", renameat2_call);
  int step = begin("renameat2", to);
  int result = real(from_dir, from, to_dir, to, flags);
  end(step);
  return result;
}

int unlink(const char *path) {
  REAL("unlink", path_call);
  int step = begin("unlink", path);
  int result = real(path);
  end(step);
  return result;
}

int unlinkat(int dir, const char *path, int flags) {
  REAL("unlinkat", unlinkat_call);
  int step = begin("unlinkat", path);
  int result = real(dir, path, flags);
  end(step);
  return result;
}

#include "driver/Process.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ldcc::driver {

namespace {

volatile sig_atomic_t gChild = 0;
volatile sig_atomic_t gSignal = 0;

void forwardSignal(int sig) {
  gSignal = sig;
  if (gChild > 0) kill(static_cast<pid_t>(gChild), sig);
}

constexpr int kForwarded[] = {SIGINT, SIGTERM, SIGHUP};

}  // namespace

int receivedSignal() { return gSignal; }

std::string shellQuote(const std::string &word) {
  if (word.empty()) return "''";
  bool plain = true;
  for (unsigned char c : word)
    if (!(std::isalnum(c) || std::strchr("-_./=:,+@%^", c))) plain = false;
  if (plain) return word;
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

std::string commandLineString(const std::vector<std::string> &argv) {
  std::string out;
  for (const auto &word : argv) {
    if (!out.empty()) out += ' ';
    out += shellQuote(word);
  }
  return out;
}

namespace {

void writeAll(int fd, const std::string &text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<size_t>(n);
  }
}

// Reads the child's captured stdout and filtered stderr until both are closed.
void pump(int outFd, std::string *captured, int errFd, const LineFilter &filter) {
  std::string pending;  // stderr bytes after the last newline
  char buf[65536];
  while (outFd >= 0 || errFd >= 0) {
    pollfd fds[2];
    int count = 0;
    if (outFd >= 0) fds[count++] = {outFd, POLLIN, 0};
    if (errFd >= 0) fds[count++] = {errFd, POLLIN, 0};
    if (poll(fds, count, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      bool isOut = fds[i].fd == outFd;
      if (n <= 0) {
        close(fds[i].fd);
        (isOut ? outFd : errFd) = -1;
        continue;
      }
      if (isOut) {
        captured->append(buf, static_cast<size_t>(n));
        continue;
      }
      pending.append(buf, static_cast<size_t>(n));
      size_t newline;
      while ((newline = pending.find('\n')) != std::string::npos) {
        writeAll(STDERR_FILENO, filter(pending.substr(0, newline)) + "\n");
        pending.erase(0, newline + 1);
      }
    }
  }
  if (!pending.empty()) writeAll(STDERR_FILENO, filter(pending));
}

}  // namespace

int runProcess(const std::vector<std::string> &argv, std::string *capturedStdout,
               const LineFilter &stderrFilter) {
  if (argv.empty()) return 127;
  std::vector<char *> cargv;
  for (const auto &a : argv) cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);

  int outPipe[2] = {-1, -1};
  int errPipe[2] = {-1, -1};
  if ((capturedStdout && pipe(outPipe) != 0) || (stderrFilter && pipe(errPipe) != 0)) {
    std::fprintf(stderr, "ldcc: error: cannot create a pipe: %s\n", std::strerror(errno));
    return 127;
  }
  // Reports a failed exec to the parent (closed on a successful one).
  int execPipe[2] = {-1, -1};
  if (pipe(execPipe) != 0) {
    std::fprintf(stderr, "ldcc: error: cannot create a pipe: %s\n", std::strerror(errno));
    return 127;
  }
  fcntl(execPipe[1], F_SETFD, FD_CLOEXEC);

  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "ldcc: error: cannot start '%s': %s\n", argv[0].c_str(),
                 std::strerror(errno));
    return 127;
  }
  if (pid == 0) {
    close(execPipe[0]);
    if (capturedStdout) {
      dup2(outPipe[1], STDOUT_FILENO);
      close(outPipe[0]);
      close(outPipe[1]);
    }
    if (stderrFilter) {
      dup2(errPipe[1], STDERR_FILENO);
      close(errPipe[0]);
      close(errPipe[1]);
    }
    execvp(cargv[0], cargv.data());
    int err = errno;
    ssize_t ignored = write(execPipe[1], &err, sizeof err);
    (void)ignored;
    _exit(127);
  }

  gChild = pid;
  struct sigaction forward {}, saved[3];
  forward.sa_handler = forwardSignal;
  sigemptyset(&forward.sa_mask);
  for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &forward, &saved[i]);

  close(execPipe[1]);
  if (capturedStdout) close(outPipe[1]);
  if (stderrFilter) close(errPipe[1]);
  pump(capturedStdout ? outPipe[0] : -1, capturedStdout, stderrFilter ? errPipe[0] : -1,
       stderrFilter);
  int execErr = 0;
  ssize_t got;
  do {
    got = read(execPipe[0], &execErr, sizeof execErr);
  } while (got < 0 && errno == EINTR);
  close(execPipe[0]);

  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  gChild = 0;
  for (int i = 0; i < 3; ++i) sigaction(kForwarded[i], &saved[i], nullptr);

  if (got == static_cast<ssize_t>(sizeof execErr)) {
    std::fprintf(stderr, "ldcc: error: cannot run '%s': %s\n", argv[0].c_str(),
                 std::strerror(execErr));
    return 127;
  }
  if (waited < 0) return 127;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace ldcc::driver

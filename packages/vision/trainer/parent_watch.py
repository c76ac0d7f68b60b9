"""Ends the trainer when the process that started it dies.

The server runs the trainer as a child. If the server is killed (kill -9, OOM killer, crash), nothing
would stop the trainer: it would be re-parented and go on using CPU and memory beside the next job's
trainer. Two guards, either is enough:
  * Linux: prctl(PR_SET_PDEATHSIG) has the kernel send SIGKILL to this process when its parent dies.
  * Anywhere: when stdin is a pipe from the parent, a thread waits for it to close (the parent died or
    closed it) and exits the process. The server spawns the trainer with stdin as a pipe.
"""
import ctypes
import os
import signal
import stat
import sys
import threading

PR_SET_PDEATHSIG = 1


def _die_with_parent_linux():
    if not sys.platform.startswith('linux'):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _exit_when_stdin_closes():
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return
    if not stat.S_ISFIFO(mode):
        return  # /dev/null or a terminal: no parent pipe to watch

    def watch():
        try:
            while os.read(sys.stdin.fileno(), 4096):
                pass
        except OSError:
            pass
        print('parent process is gone: stopping the trainer', file=sys.stderr, flush=True)
        os._exit(1)

    threading.Thread(target=watch, name='parent-watch', daemon=True).start()


def exit_with_parent():
    """Call first thing in main(): the trainer never outlives the process that started it."""
    _die_with_parent_linux()
    # A parent that died before this call (torch takes seconds to import) has closed the pipe already.
    _exit_when_stdin_closes()

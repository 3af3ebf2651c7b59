/**
 * `npm start` ends with whoever started it. npm forwards SIGTERM to the `sh -c` it runs the script in, and that shell
 * dies without passing it on, so the process serving the ports would live on, adopted by init. This watch ends it
 * instead: when its parent is gone (its parent pid changes, or the parent no longer answers signal 0), or, when that
 * parent is the shell npm runs scripts in, npm itself (the grandparent, read from /proc on Linux), `onGone` runs
 * once. A grandparent that is not npm's (a terminal's shell, a process manager) is never watched: a server started
 * in the background outlives the shell that started it as any process would.
 */
import { readFileSync } from 'node:fs';

/** The parent pid of `pid` from /proc (Linux); undefined where there is no /proc. */
const parentOf = (pid: number): number | undefined => {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) && ppid > 1 ? ppid : undefined;
  } catch {
    return undefined;
  }
};

/** The parent is the `sh -c` npm runs a script in: then the grandparent is npm, and it is watched too. */
const isNpmScriptShell = (pid: number): boolean => {
  if (process.env.npm_lifecycle_event === undefined) return false;
  try {
    return /^(?:sh|dash|bash|zsh)$/.test(readFileSync(`/proc/${pid}/comm`, 'utf8').trim());
  } catch {
    return false;
  }
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Calls `onGone` once when the parent (or npm, the script shell's parent) is gone; every `intervalMs`. Answers a stop function. */
export const watchParent = (onGone: (why: string) => void, intervalMs = 500): (() => void) => {
  const parent = process.ppid;
  const grandparent = isNpmScriptShell(parent) ? parentOf(parent) : undefined;
  const timer = setInterval(() => {
    const why =
      process.ppid !== parent || !alive(parent)
        ? `its parent process ${parent} is gone`
        : grandparent !== undefined && (!alive(grandparent) || parentOf(parent) !== grandparent)
          ? `the process that started it (${grandparent}) is gone`
          : undefined;
    if (why === undefined) return;
    clearInterval(timer);
    onGone(why);
  }, intervalMs);
  // Never the reason the process stays up.
  timer.unref();
  return () => clearInterval(timer);
};

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type SubgraphName, subgraphNames } from '../runtime/config.ts';
import { freePort } from '../runtime/database.ts';

const root = path.resolve(import.meta.dirname, '..');
/** Clock ticks a second in /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

export interface BenchProcess {
  pid: number;
  /** CPU time the process has used so far, in ms (user and system). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Starts a TypeScript entry point of this repository as a process of its
 * own and waits until `ready` answers; its output is dropped unless it
 * fails to start.
 */
export async function startBenchProcess(entry: string, args: string[], env: Record<string, string>, ready: () => Promise<boolean>): Promise<BenchProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(root, entry), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${entry} ${args.join(' ')} exited while starting:\n${output}`);
    if (await ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} ${args.join(' ')} did not start within 300 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    pid: child.pid!,
    cpuMs() {
      // Fields after the command name (which may hold spaces) start at the state, field 3; utime and stime are fields 14 and 15.
      const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(late);
    },
  };
}

/** The four subgraphs, each a process of its own (`--role subgraph:<name>`), and the variables that point a gateway at them. */
export async function startSubgraphProcesses(env: Record<string, string>): Promise<{ processes: BenchProcess[]; urls: Record<SubgraphName, string>; gatewayEnv: Record<string, string> }> {
  const processes: BenchProcess[] = [];
  const urls = {} as Record<SubgraphName, string>;
  try {
    // One after another: started together on a busy machine, they starve each other past any sensible wait.
    for (const name of subgraphNames) {
      const port = await freePort();
      urls[name] = `http://127.0.0.1:${port}/graphql`;
      processes.push(await startBenchProcess('main.ts', ['--role', `subgraph:${name}`], { ...env, PORT: String(port) }, () => answersHttp(urls[name])));
    }
  } catch (error) {
    await Promise.all(processes.map((process) => process.stop()));
    throw error;
  }
  const gatewayEnv = Object.fromEntries(subgraphNames.map((name) => [`EARSHOT_SUBGRAPH_${name.toUpperCase()}_URL`, urls[name]]));
  return { processes, urls, gatewayEnv };
}

/** Whether anything answers HTTP at `url`. */
export async function answersHttp(url: string): Promise<boolean> {
  await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
  return true;
}

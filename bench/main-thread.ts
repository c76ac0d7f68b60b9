/**
 * Where a phone's main thread goes while a screen starts (what Lighthouse's total blocking time is made
 * of): loads a route cold in Debian's chromium at 390×844 with the CPU slowed 4× (Lighthouse's mobile
 * setting), records the long tasks (> 50 ms) and a CPU profile, and prints the self time by script and
 * the costliest functions, overall and within each long task (a trace gives the tasks' bounds). Signed in
 * as the built app's farmer for /account routes.
 * Also prints the page scripts' own time ("script evaluation"): steadier than the long tasks on a loaded
 * machine, to compare two builds (BENCH_WEB_DIST) in one session.
 *
 *   npm run build && node bench/main-thread.ts [route, default /account] [--callers appendChild]
 */
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startBuiltApp } from './built-app.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { callers: { type: 'string' } } });
const route = positionals[0] ?? '/account';
const { t, base, tokens } = await startBuiltApp();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
  await context.addInitScript(
    ([signedIn, a, r, u]) => {
      const tasks: [number, number][] = [];
      (window as unknown as { longTasks: typeof tasks }).longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) tasks.push([Math.round(e.startTime), Math.round(e.duration)]);
      }).observe({ type: 'longtask', buffered: true });
      if (!signedIn) return;
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
      localStorage.setItem('user', JSON.stringify(u));
    },
    [route.startsWith('/account'), tokens.access, tokens.refresh, tokens.user] as const,
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const trace: { name: string; ts: number; dur?: number; pid: number; tid: number }[] = [];
  cdp.on('Tracing.dataCollected', (data) => trace.push(...(data.value as typeof trace)));
  const traced = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline',
    transferMode: 'ReportEvents',
  });
  await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(2000);
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Tracing.end');
  await traced;
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: [number, number][] }).longTasks);
  const blocking = longTasks.reduce((sum, [, ms]) => sum + ms - 50, 0);
  console.log(`${route}: ${longTasks.length} long tasks, ${blocking} ms over 50 ms (4× slower CPU)`);
  console.log(`  tasks [start ms, duration ms]: ${JSON.stringify(longTasks)}`);

  // Profile samples and trace events share the browser's monotonic clock (microseconds).
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  let at = profile.startTime;
  const samples = (profile.samples ?? []).map((id, i) => {
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    at += profile.timeDeltas?.[i] ?? 0;
    const frame = nodes.get(id)!;
    const script = frame.url.replace(/^.*\//, '') || frame.functionName; // (program), (idle), (garbage collector)
    return {
      at,
      ms,
      script,
      fn: frame.url ? `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber}` : '',
    };
  });
  const summary = (within: typeof samples, scripts: number, functions: number) => {
    const byScript = new Map<string, number>();
    const byFunction = new Map<string, number>();
    for (const { ms, script, fn } of within) {
      byScript.set(script, (byScript.get(script) ?? 0) + ms);
      if (fn) byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, ms]) => `${Math.round(ms)} ms ${k}`);
    return { scripts: top(byScript, scripts), functions: top(byFunction, functions) };
  };
  // The page's scripts' own time (samples in a script with an address): a steadier figure than the long
  // tasks on a loaded machine, and the part of Lighthouse's "script evaluation" the app's code decides.
  const scriptMs = samples.reduce((sum, s) => sum + (s.fn ? s.ms : 0), 0);
  console.log(`  script evaluation: ${Math.round(scriptMs)} ms of the page's scripts' own time (4× slower CPU)`);
  const all = summary(samples, 12, 15);
  console.log(`  self time by script:\n${all.scripts.map((l) => `    ${l}`).join('\n')}`);
  console.log(`  costliest functions:\n${all.functions.map((l) => `    ${l}`).join('\n')}`);
  const callersOf = values.callers;
  if (callersOf) {
    // Who calls a costly function (e.g. appendChild): its sampled stacks, five frames up, by time.
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
    const stacks = new Map<string, number>();
    (profile.samples ?? []).forEach((id, i) => {
      if (nodes.get(id)!.functionName !== callersOf) return;
      const frames: string[] = [];
      for (let up = parent.get(id); up !== undefined && frames.length < 5; up = parent.get(up)) {
        const f = nodes.get(up)!;
        frames.push(
          `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\//, '')}:${f.lineNumber}:${f.columnNumber}`,
        );
      }
      const key = frames.join(' < ');
      stacks.set(key, (stacks.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
    });
    console.log(`  callers of ${callersOf}:`);
    for (const [k, ms] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 8))
      console.log(`    ${Math.round(ms)} ms ${k}`);
  }
  const main = trace.find((e) => e.name === 'TracingStartedInBrowser');
  const tasks = trace.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000 && (!main || e.pid !== main.pid));
  for (const task of tasks.sort((a, b) => a.ts - b.ts)) {
    const within = samples.filter((x) => x.at >= task.ts && x.at <= task.ts + task.dur!);
    if (within.length === 0) continue; // another thread's task
    const { scripts, functions } = summary(within, 4, 4);
    console.log(
      `  long task of ${Math.round(task.dur! / 1000)} ms: ${scripts.join(', ')}\n    ${functions.join(', ')}`,
    );
  }
} finally {
  await browser.close();
  await t.close();
}

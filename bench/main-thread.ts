/**
 * Where a phone's main thread goes while a screen starts (what Lighthouse's total blocking time is made
 * of): loads a route cold in Debian's chromium at 390×844 with the CPU slowed 4× (Lighthouse's mobile
 * setting), records the long tasks (> 50 ms) and a CPU profile, and prints the self time by script and
 * the costliest functions. Signed in as the built app's farmer for /account routes.
 *
 *   npm run build && node bench/main-thread.ts [route, default /account]
 */
import { chromium } from '@playwright/test';
import { startBuiltApp } from './built-app.ts';

const route = process.argv[2] ?? '/account';
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
  await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
  await page.waitForTimeout(2000);
  const { profile } = await cdp.send('Profiler.stop');
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: [number, number][] }).longTasks);
  const blocking = longTasks.reduce((sum, [, ms]) => sum + ms - 50, 0);
  console.log(`${route}: ${longTasks.length} long tasks, ${blocking} ms over 50 ms (4× slower CPU)`);
  console.log(`  tasks [start ms, duration ms]: ${JSON.stringify(longTasks)}`);

  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples?.forEach((id, i) => {
    const frame = nodes.get(id)!;
    const ms = (profile.timeDeltas?.[i] ?? 0) / 1000;
    const script = frame.url.replace(/^.*\//, '') || frame.functionName; // (program), (idle), (garbage collector)
    add(byScript, script, ms);
    if (frame.url) add(byFunction, `${frame.functionName || '(anonymous)'} ${script}:${frame.lineNumber}`, ms);
  });
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, ms]) => `    ${Math.round(ms)} ms ${k}`)
      .join('\n');
  console.log(`  self time by script:\n${top(byScript, 12)}\n  costliest functions:\n${top(byFunction, 15)}`);
} finally {
  await browser.close();
  await t.close();
}

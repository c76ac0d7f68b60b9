import { type APIRequestContext, expect, type Page, type Request, test } from '@playwright/test';
import serverEn from '../apps/server/src/i18n/locales/en.json' with { type: 'json' };
import serverLg from '../apps/server/src/i18n/locales/lg.json' with { type: 'json' };
import serverSw from '../apps/server/src/i18n/locales/sw.json' with { type: 'json' };
import { routes } from '../apps/web/src/config/routes.ts';
import en from '../apps/web/src/lib/locales/en.json' with { type: 'json' };
import lg from '../apps/web/src/lib/locales/lg.json' with { type: 'json' };
import sw from '../apps/web/src/lib/locales/sw.json' with { type: 'json' };
import { E2E_ADMIN } from './admin.ts';
import { createActiveUser } from './support.ts';

// No English on any screen in Kiswahili and Luganda. Every screen of routes.ts is
// opened signed out and as a farmer, an expert and an administrator, and its visible text (and the
// placeholders, labels and titles a screen reader says) is compared with what English would show:
// - a text equal to an English string of the web app or of the server that the language translates
//   differently (a template by its longest fixed part), i.e. a string left untranslated;
// - English dates ("Nov 25, 2026"), the crops' and diseases' code names ("MAIZE", "common_rust");
// - English glosses in brackets after a translated word ("Kutu (rust) ku kasooli").
// What users wrote (posts, bios, names) is theirs and is not judged: it never equals a whole UI string.
// Each screen must also fit the 390 px phone without sideways scrolling in both languages.

type Tree = { [key: string]: string | Tree };
type Language = 'sw' | 'lg';

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

/** English texts a screen must not show in `language`: whole strings, and templates' fixed parts. */
function untranslated(english: Tree, translated: Tree) {
  const other = leaves(translated);
  const whole = new Set<string>();
  const parts = new Set<string>();
  for (const [key, value] of leaves(english)) {
    if (other.get(key) === value) continue; // the same in both (a name, a unit, "Kutu")
    if (!/[a-z]{3}/i.test(value) || value.includes('$t(')) continue;
    if (/\{\{|<\d+>|<\w+>/.test(value)) {
      const fixed = value
        .split(/\{\{[^}]+\}\}|<\/?\w+>/)
        .map((p) => p.trim())
        .sort((a, b) => b.length - a.length)[0];
      // Long enough to be a sentence of ours, never a word of a user's text.
      if (fixed && fixed.length >= 16 && fixed.includes(' ')) parts.add(fixed);
    } else whole.add(value.trim());
  }
  return { whole, parts };
}

const catalogs = {
  sw: [untranslated(en as Tree, sw as Tree), untranslated(serverEn as Tree, serverSw as Tree)],
  lg: [untranslated(en as Tree, lg as Tree), untranslated(serverEn as Tree, serverLg as Tree)],
};

const ENGLISH_DATE = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}, \d{4}\b/;
const CODE_NAMES = /\b(MAIZE|WHEAT|RICE|BEANS|common_rust|other_disease|not_leaf|I DON'T KNOW)\b/;
const ENGLISH_GLOSS =
  /\((rust|southern rust|stripe rust|leaf rust|stem rust|spores|label|certified|legumes|lime|active ingredient|flag leaf|mid-altitude|lab)\)/i;

/** Every text node and the names and hints a screen gives its controls, each once. */
async function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts = new Set<string>();
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      return style.display !== 'none' && style.visibility !== 'hidden';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName)) continue;
      if (visible(parent)) texts.add(text);
    }
    for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title], [alt]')) {
      for (const attr of ['placeholder', 'aria-label', 'title', 'alt']) {
        const value = el.getAttribute(attr)?.trim();
        if (value) texts.add(value);
      }
    }
    return [...texts];
  });
}

function englishIn(texts: string[], language: Language): string[] {
  const found: string[] = [];
  for (const text of texts) {
    for (const { whole, parts } of catalogs[language]) {
      if (whole.has(text)) found.push(`untranslated: "${text}"`);
      for (const part of parts) if (text.includes(part)) found.push(`untranslated: "${text}" (has "${part}")`);
    }
    if (ENGLISH_DATE.test(text)) found.push(`English date: "${text}"`);
    if (CODE_NAMES.test(text)) found.push(`code name: "${text}"`);
    if (ENGLISH_GLOSS.test(text)) found.push(`English gloss: "${text}"`);
  }
  return found;
}

/**
 * Resolves once no request has been in flight for `quietMs` (the screen's data and chunks are in). The
 * notifications' event stream stays open for as long as the app runs, so it does not count.
 */
function networkQuiet(page: Page, quietMs = 300) {
  let inFlight = 0;
  const counts = (request: Request) => request.resourceType() !== 'eventsource';
  const started = (request: Request) => {
    if (counts(request)) inFlight++;
  };
  const ended = (request: Request) => {
    if (counts(request)) inFlight--;
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async settled() {
      for (let quietSince = Date.now(); Date.now() - quietSince < quietMs; ) {
        await page.waitForTimeout(50);
        if (inFlight > 0) quietSince = Date.now();
      }
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

/**
 * Opens each path and collects what English it shows. The first is loaded; the rest are reached
 * inside the app, as a user's taps would (a full reload per screen cost the suite minutes).
 */
async function walk(page: Page, paths: string[], language: Language) {
  const problems: string[] = [];
  const network = networkQuiet(page);
  try {
    for (const [i, path] of paths.entries()) {
      if (i === 0) await page.goto(path);
      else {
        await page.evaluate((p) => {
          window.history.pushState(null, '', p);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
      }
      await network.settled();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      for (const problem of englishIn(await screenTexts(page), language)) problems.push(`${path}: ${problem}`);
      // The longer Kiswahili and Luganda words must still fit the phone (the district picker once did not).
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: (document.scrollingElement ?? document.documentElement).scrollWidth,
        innerWidth: window.innerWidth,
      }));
      if (scrollWidth > innerWidth)
        problems.push(`${path}: scrolls sideways (${scrollWidth} px on a ${innerWidth} px phone)`);
    }
  } finally {
    network.stop();
  }
  return problems;
}

async function signIn(page: Page, request: APIRequestContext, email: string, password: string, language: Language) {
  const login = await request.post('/api/auth/login/', { data: { email, password } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const { access } = await login.json();
  // The account's language, so what the server writes (advice, resources, notices) is in it too.
  const chosen = await request.put('/api/auth/language/', {
    data: { language },
    headers: { authorization: `Bearer ${access}` },
  });
  expect(chosen.ok(), await chosen.text()).toBeTruthy();
  const again = await page.request.post('/api/auth/login/', { data: { email, password } });
  const { access: a, refresh, user } = await again.json();
  await page.goto(routes.auth.login);
  await page.evaluate(
    ([a, r, u, l]) => {
      localStorage.setItem('accessToken', a);
      localStorage.setItem('refreshToken', r);
      localStorage.setItem('user', u);
      localStorage.setItem('language', l);
    },
    [a, refresh, JSON.stringify(user), language] as const,
  );
  return { authorization: `Bearer ${a}` };
}

const signedOut = [...Object.values(routes.auth), routes.terms, routes.contactUs];
const signedInScreens = Object.values(routes).filter(
  (r): r is string => typeof r === 'string' && r !== routes.terms && r !== routes.contactUs,
);

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

for (const language of ['sw', 'lg'] as const) {
  test(`no English on the signed-out screens in ${language}`, async ({ page }) => {
    await page.goto(routes.auth.login);
    await page.evaluate((l) => localStorage.setItem('language', l), language);
    expect(await walk(page, signedOut, language)).toEqual([]);
  });

  for (const role of ['farmer', 'expert', 'admin'] as const) {
    test(`no English on any screen of ${{ farmer: 'a farmer', expert: 'an expert', admin: 'an administrator' }[role]} in ${language}`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const who =
        role === 'admin'
          ? { email: E2E_ADMIN.email, password: E2E_ADMIN.password }
          : await createActiveUser(request, role);
      const headers = await signIn(page, request, who.email, who.password, language);
      try {
        expect(await walk(page, signedInScreens, language)).toEqual([]);
      } finally {
        // The run's one administrator goes back to English for the specs after this one.
        if (role === 'admin') await request.put('/api/auth/language/', { data: { language: 'en' }, headers });
      }
    });
  }
}

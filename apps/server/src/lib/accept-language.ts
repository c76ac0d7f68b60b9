const supported = ['en', 'sw', 'lg'] as const;
type Supported = (typeof supported)[number];

const isSupported = (tag: string): tag is Supported => (supported as readonly string[]).includes(tag);

/**
 * The supported language the caller prefers most, from an Accept-Language header: ranges are taken
 * by q-value (ties in the order written), a region is ignored (`sw-KE` is `sw`), and `q=0` means
 * "not this one". Null when nothing asked for is supported (`*` included): the caller picks a default.
 */
export function preferredLanguage(acceptLanguageHeader: string | undefined): 'en' | 'sw' | 'lg' | null {
  if (!acceptLanguageHeader) return null;
  const ranges = acceptLanguageHeader
    .split(',')
    .map((part, order) => {
      const [range = '', ...params] = part.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { primary: range.trim().toLowerCase().split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, order };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return (ranges.find((r) => isSupported(r.primary))?.primary as Supported | undefined) ?? null;
}

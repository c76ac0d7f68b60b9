/**
 * `RemoveScroll` of react-remove-scroll as Mantine's AppShell header, footer and aside use it: only its two
 * class names, which keep a fixed bar clear of the scrollbar while a dialog holds the page still.
 * vite.config.ts (`MANTINE_IMPORTS_REDIRECTED`) resolves their import to this module: the real one (react-remove-scroll and its helpers,
 * 3.7 KiB brotli) comes with the dialogs that lock the scroll, not with the account shell on every screen.
 * app-shell-remove-scroll.test.ts checks the names against the library's.
 */
export const RemoveScroll = {
  classNames: { fullWidth: 'width-before-scroll-bar', zeroRight: 'right-scroll-bar-position' },
} as const;

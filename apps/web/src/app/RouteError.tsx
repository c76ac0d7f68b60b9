import { Component, type ReactNode } from 'react';
import { Alert, Anchor, Button, Center, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * A screen's code (a route chunk) that cannot be fetched: after a redeploy an old tab asks for files
 * the new release removed (404), or the phone is offline and the chunk was never cached. Browsers word
 * it differently; all of them name a dynamically imported module or a module script.
 */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|module script|Unable to preload CSS|ChunkLoadError/i.test(message);
}

/** Plain words and a reload button instead of a blank page or a stack trace. */
function RouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  const offline = typeof navigator !== 'undefined' && !navigator.onLine;
  const [title, text] =
    chunk && offline
      ? [t('shell.offlineTitle'), t('shell.offlineText')]
      : chunk
        ? [t('shell.updateTitle'), t('shell.updateText')]
        : [t('shell.errorTitle'), t('shell.errorText')];
  return (
    <Center component="main" mih="80vh" p="md">
      <Stack maw={420} w="100%">
        <Alert color="yellow" title={<h1 style={{ fontSize: 'inherit', margin: 0 }}>{title}</h1>}>
          {text}
        </Alert>
        <Button onClick={() => window.location.reload()}>{t('shell.reload')}</Button>
        <Anchor href="/" ta="center">
          {t('shell.home')}
        </Anchor>
      </Stack>
    </Center>
  );
}

/**
 * Every screen under one error boundary: a failed chunk load (React.lazy rejects) or a crash shows a
 * way back. Moving to another screen (a new `pathname`) leaves the error behind.
 */
export class RouteErrorBoundary extends Component<
  { pathname: string; children: ReactNode },
  { error: unknown; pathname: string }
> {
  override state = { error: null as unknown, pathname: this.props.pathname };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: { pathname: string }, state: { pathname: string }) {
    return props.pathname === state.pathname ? null : { error: null, pathname: props.pathname };
  }

  override componentDidCatch(error: unknown) {
    console.error(error);
  }

  override render() {
    return this.state.error === null ? this.props.children : <RouteError error={this.state.error} />;
  }
}

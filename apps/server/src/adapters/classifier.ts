import type { Classifier } from '@kutu/vision';

export type { Classifier } from '@kutu/vision';

/**
 * The classifier the server uses now. Training swaps in a new model version (activate, roll back)
 * with `replace`: new requests get the new model at once, calls already running finish on the old
 * one, and the old one is closed when its last call returns.
 */
export interface ClassifierHolder {
  current(): Classifier;
  replace(next: Classifier): Promise<void>;
  /** Closes the classifier in use (after its running calls); for shutdown. */
  close(): Promise<void>;
}

interface Slot {
  classifier: Classifier;
  running: number;
  retired: boolean;
  closed: Promise<void> | null;
  drained: (() => void) | null;
}

export function createClassifierHolder(initial: Classifier): ClassifierHolder {
  let slot = newSlot(initial);

  function newSlot(classifier: Classifier): Slot {
    return { classifier, running: 0, retired: false, closed: null, drained: null };
  }

  /** Closes a retired slot once nothing runs on it; resolves when it is closed. */
  function retire(old: Slot): Promise<void> {
    old.retired = true;
    old.closed ??= (
      old.running === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            old.drained = resolve;
          })
    ).then(() => old.classifier.close());
    return old.closed;
  }

  /** A view of one slot that counts the calls running on it. */
  function view(s: Slot): Classifier {
    return {
      version: s.classifier.version,
      dir: s.classifier.dir,
      card: s.classifier.card,
      async classify(image, options) {
        // A view taken before a swap but called after it uses the model in service now.
        const target = s.retired ? slot : s;
        target.running += 1;
        try {
          // The options too: the crop named picks the share's colour rules (severity.ts).
          return await target.classifier.classify(image, options);
        } finally {
          target.running -= 1;
          if (target.running === 0 && target.retired) target.drained?.();
        }
      },
      // Callers of current() do not own the classifier; closing is the holder's job.
      close: async () => {},
    };
  }

  return {
    current: () => view(slot),
    async replace(next) {
      if (next === slot.classifier) return;
      const old = slot;
      slot = newSlot(next);
      await retire(old);
    },
    close: () => retire(slot),
  };
}

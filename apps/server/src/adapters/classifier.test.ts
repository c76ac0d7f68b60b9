import { describe, expect, it } from 'vitest';
import { createClassifierHolder, type Classifier } from './classifier.ts';
import { committedClassifier } from '../../test/support/app.ts';
import { fixture } from '../../test/support/photos.ts';

const testModel = (): Promise<Classifier> => committedClassifier();

/** The real model under another version name, with a gate on classify and a record of close(). */
async function tracked(version: string, log: string[]) {
  const model = await testModel();
  let release = () => {};
  let gate: Promise<void> = Promise.resolve();
  const classifier: Classifier = {
    version,
    card: { ...model.card, version },
    async classify(image) {
      log.push(`${version}:start`);
      await gate;
      const d = await model.classify(image);
      log.push(`${version}:end`);
      return { ...d, model_version: version };
    },
    async close() {
      log.push(`${version}:close`);
    },
  };
  return {
    classifier,
    hold() {
      gate = new Promise((r) => {
        release = r;
      });
    },
    release: () => release(),
  };
}

describe('ClassifierHolder', () => {
  it('swaps at once for new calls and closes the old model only after its running calls finish', async () => {
    const log: string[] = [];
    const a = await tracked('a', log);
    const b = await tracked('b', log);
    const holder = createClassifierHolder(a.classifier);
    const leaf = fixture('maize-common-rust.jpg');

    a.hold();
    const running = holder.current().classify(leaf);
    await new Promise((r) => setTimeout(r, 10));
    let replaced = false;
    const replacing = holder.replace(b.classifier).then(() => {
      replaced = true;
    });
    expect(holder.current().version).toBe('b');
    expect((await holder.current().classify(leaf)).model_version).toBe('b');
    await new Promise((r) => setTimeout(r, 10));
    expect(log).not.toContain('a:close');
    expect(replaced).toBe(false);

    a.release();
    expect((await running).model_version).toBe('a');
    await replacing;
    expect(log.indexOf('a:close')).toBeGreaterThan(log.indexOf('a:end'));
    expect(log).not.toContain('b:close');
  });

  it('closes an idle old model at once, sends late calls on an old view to the new model, and closes on shutdown', async () => {
    const log: string[] = [];
    const a = await tracked('a', log);
    const b = await tracked('b', log);
    const holder = createClassifierHolder(a.classifier);
    const stale = holder.current();
    await holder.replace(b.classifier);
    expect(log).toEqual(['a:close']);
    expect((await stale.classify(fixture('maize-healthy.jpg'))).model_version).toBe('b');
    // Callers cannot close the model through their view; the holder does.
    await holder.current().close();
    expect(log).not.toContain('b:close');
    await holder.close();
    expect(log).toContain('b:close');
  });
});

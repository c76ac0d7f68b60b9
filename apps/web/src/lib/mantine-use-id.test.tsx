import { render } from '@testing-library/react';
import { useId as mantineUseId } from '@mantine/hooks';
import { describe, expect, it } from 'vitest';
import { useId } from './mantine-use-id.ts';

function counting(hook: (staticId?: string) => string) {
  const renders: string[] = [];
  function Field({ staticId }: { staticId?: string }) {
    const id = hook(staticId);
    renders.push(id);
    return <input id={id} aria-label="field" />;
  }
  return { Field, renders };
}

describe('useId for Mantine', () => {
  it('renders each component once, where Mantine’s own renders it twice', () => {
    const ours = counting(useId);
    render(<ours.Field />);
    expect(ours.renders).toHaveLength(1);

    // Unit tests load Mantine unbuilt, so this is its own useId: the second render is what the build avoids.
    const theirs = counting(mantineUseId);
    render(<theirs.Field />);
    expect(theirs.renders).toHaveLength(2);
  });

  it('gives each component its own id, a valid one, kept across renders', () => {
    const { Field, renders } = counting(useId);
    const { rerender, container } = render(
      <>
        <Field />
        <Field />
      </>,
    );
    rerender(
      <>
        <Field />
        <Field />
      </>,
    );
    const [a, b] = [...container.querySelectorAll('input')].map((i) => i.id);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^mantine-[\w-]+$/);
    expect(renders).toEqual([a, b, a, b]);
  });

  it('returns the id a component was given', () => {
    const { Field, renders } = counting(useId);
    render(<Field staticId="crop-select" />);
    expect(renders).toEqual(['crop-select']);
  });
});

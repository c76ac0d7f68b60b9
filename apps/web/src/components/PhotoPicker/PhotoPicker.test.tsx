import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render.tsx';
import { PhotoPicker } from './PhotoPicker.tsx';

const photo = (name = 'leaf.jpg', type = 'image/jpeg') => new File(['x'], name, { type });

function setup(disabled = false) {
  const onPick = vi.fn();
  renderWithProviders(<PhotoPicker onPick={onPick} disabled={disabled} label="Leaf photo" testId="picker" />);
  const zone = screen.getByTestId('picker');
  return { onPick, zone, input: zone.querySelector<HTMLInputElement>('input[type=file]')! };
}

const drop = (zone: HTMLElement, files: File[]) =>
  fireEvent.drop(zone, { dataTransfer: { files, items: files.map((f) => ({ kind: 'file', type: f.type })) } });

describe('PhotoPicker without a drop-zone package (decision 0121)', () => {
  it('names the zone, and its file input takes one image', async () => {
    const { onPick, zone, input } = setup();
    expect(zone.getAttribute('aria-label')).toBe('Leaf photo');
    expect(input.getAttribute('accept')).toBe('image/*');
    expect(input.multiple).toBe(false);
    await userEvent.upload(input, photo());
    expect(onPick).toHaveBeenCalledWith([expect.objectContaining({ name: 'leaf.jpg' })], []);
  });

  it('a dropped image is picked; a second file or one that is not an image is refused with react-dropzone’s codes', () => {
    const { onPick, zone } = setup();
    drop(zone, [photo()]);
    expect(onPick).toHaveBeenLastCalledWith([expect.objectContaining({ name: 'leaf.jpg' })], []);
    drop(zone, [photo(), photo('b.jpg')]);
    expect(onPick.mock.lastCall![0]).toEqual([]);
    expect(onPick.mock.lastCall![1].map((r: { errors: { code: string }[] }) => r.errors[0]!.code)).toEqual([
      'too-many-files',
      'too-many-files',
    ]);
    drop(zone, [photo('notes.txt', 'text/plain')]);
    expect(onPick.mock.lastCall![1][0].errors[0].code).toBe('file-invalid-type');
  });

  it('shows whether a dragged file would be taken, and takes no drop while disabled', () => {
    const { zone } = setup();
    fireEvent.dragEnter(zone, { dataTransfer: { items: [{ kind: 'file', type: 'image/png' }], dropEffect: 'none' } });
    expect(zone.hasAttribute('data-accept')).toBe(true);
    fireEvent.dragOver(zone, { dataTransfer: { items: [{ kind: 'file', type: 'text/plain' }], dropEffect: 'none' } });
    expect(zone.hasAttribute('data-reject')).toBe(true);
    fireEvent.dragLeave(zone, { relatedTarget: document.body });
    expect(zone.hasAttribute('data-idle')).toBe(true);
  });

  it('takes nothing while disabled', () => {
    const { onPick, zone, input } = setup(true);
    drop(zone, [photo()]);
    expect(onPick).not.toHaveBeenCalled();
    expect(input.disabled).toBe(true);
  });
});

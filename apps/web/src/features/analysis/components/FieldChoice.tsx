import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AnalysisCrop, Field } from '@kutu/contract';
import { FIELD_NAME_MAX } from '@kutu/contract/fields-paths';
import { fieldsQuery, useCreateField } from '../../../api/fields.ts';
import { errorMessage } from '../../../lib/api.ts';
import { lastFieldId } from '../lib/last-field.ts';

// Loaded by the upload screen with the fields screens' strings, just after the screen shows.
export { screenStringsReady } from '../../../lib/fields-strings.ts';

/** The farmer's fields offered (newest first, the last one used first of all); more are a choice below. */
const LISTED = 50;
/** Fields shown as one-tap buttons; the rest are in "Another field". */
const BUTTONS = 3;

/**
 * A new field without leaving the upload: its name, and the crop chosen on the upload screen. Without
 * @mantine/form or the contract's schemas, which would put the upload screen over its byte budget: an
 * empty name is said at once, and the server checks the rest with the contract's schema (its message,
 * in the reader's language, shows under the name).
 */
function NewField({
  crop,
  onAdded,
  disabled,
}: {
  crop: AnalysisCrop;
  onAdded: (field: Field) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const create = useCreateField();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError(t('validation.fieldName'));
      return;
    }
    setError(null);
    create.mutate({ name: name.trim(), crop }, { onSuccess: onAdded, onError: (err) => setError(errorMessage(err)) });
  };
  return (
    <form onSubmit={submit} noValidate data-testid="new-field">
      <Group gap="xs" align="flex-end" wrap="wrap">
        <TextInput
          label={t('fields.choice.newName')}
          description={t('fields.choice.newCrop', { crop: t(`review.crop.${crop}`) })}
          maxLength={FIELD_NAME_MAX}
          required
          style={{ flex: '1 1 12rem' }}
          disabled={disabled}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error}
        />
        <Button type="submit" loading={create.isPending} disabled={disabled}>
          {t('fields.choice.create')}
        </Button>
      </Group>
    </form>
  );
}

/**
 * Which field the photo is of (docs/decisions/0078): one tap for the last field used (chosen already),
 * the others as buttons or a list, and "a new field" inline (name, with the crop chosen below). Without
 * a choice (no field yet, or offline before the list was seen) the server puts the photo in the
 * farmer's field of that crop.
 */
export function FieldChoice({
  chosen,
  onChoose,
  preferred,
  crop,
  disabled,
}: {
  chosen: Field | null;
  onChoose: (field: Field | null) => void;
  /** The field to start with (the address's `?field=`, or a follow-up's field); else the last one used. */
  preferred: number | null;
  crop: AnalysisCrop;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const list = useQuery(fieldsQuery(1, LISTED));
  const [adding, setAdding] = useState(false);
  const fields = list.data?.results ?? [];
  const first = preferred ?? lastFieldId();
  const ordered = [...fields].sort((a, b) => Number(b.id === first) - Number(a.id === first));
  // The first choice is made once the list is in, and again only for another preferred field (a
  // follow-up's, known a moment later): the farmer's own choice is otherwise never replaced.
  const startedFor = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (!list.data || startedFor.current === first) return;
    startedFor.current = first;
    if (ordered[0]) onChoose(ordered[0]);
    else setAdding(true);
  }, [list.data, ordered, first, onChoose]);

  // A crop chosen on the screen that is not the chosen field's: the farmer's latest field of that crop
  // instead (the list is newest first), or none, when the server puts the photo in one of that crop.
  const cropSeen = useRef(crop);
  useEffect(() => {
    if (cropSeen.current === crop) return;
    cropSeen.current = crop;
    if (!list.data || adding || chosen?.crop === crop) return;
    onChoose(fields.find((f) => f.crop === crop) ?? null);
  }, [crop, chosen, adding, list.data, fields, onChoose]);

  const buttons = ordered.slice(0, BUTTONS);
  const rest = ordered.slice(BUTTONS);
  const online = typeof navigator === 'undefined' || navigator.onLine;
  return (
    <Stack gap="xs" data-testid="field-choice">
      <Text size="sm" fw={500} id="field-choice-label">
        {t('fields.choice.label')}
      </Text>
      <Group gap="xs" role="group" aria-labelledby="field-choice-label">
        {buttons.map((f) => (
          <Button
            key={f.id}
            variant={chosen?.id === f.id && !adding ? 'filled' : 'default'}
            aria-pressed={chosen?.id === f.id && !adding}
            onClick={() => {
              setAdding(false);
              onChoose(f);
            }}
            disabled={disabled}
            styles={{ label: { whiteSpace: 'normal' } }}
            h="auto"
            mih={44}
          >
            {t('fields.choice.option', { name: f.name, crop: t(`review.crop.${f.crop}`) })}
          </Button>
        ))}
        <Button
          variant={adding ? 'filled' : 'subtle'}
          aria-pressed={adding}
          onClick={() => {
            setAdding(true);
            onChoose(null);
          }}
          disabled={disabled || !online}
          mih={44}
          leftSection={<IconPlus size={16} aria-hidden />}
        >
          {t('fields.choice.new')}
        </Button>
      </Group>
      {rest.length > 0 && (
        <NativeSelect
          aria-label={t('fields.choice.another')}
          value={rest.some((f) => f.id === chosen?.id) ? String(chosen?.id) : ''}
          onChange={(e) => {
            setAdding(false);
            onChoose(rest.find((f) => String(f.id) === e.currentTarget.value) ?? null);
          }}
          data={[
            { value: '', label: t('fields.choice.another') },
            ...rest.map((f) => ({ value: String(f.id), label: f.name })),
          ]}
          disabled={disabled}
        />
      )}
      {!online && (
        <Text size="xs" c="dimmed">
          {t('fields.choice.newNeedsSignal')}
        </Text>
      )}
      {adding && online && (
        <NewField
          crop={crop}
          disabled={disabled}
          onAdded={(field) => {
            setAdding(false);
            onChoose(field);
          }}
        />
      )}
    </Stack>
  );
}

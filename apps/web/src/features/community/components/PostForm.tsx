import { useState } from 'react';
import { Button, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { POST_CONTENT_MAX, POST_TITLE_MAX, postCreateBody } from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreatePost } from '../api/community.ts';
import { cropOptions, diseaseOptions, urgencyOptions } from './labels.ts';

const empty = { title: '', content: '', crop_type: '', disease_type: '', urgency_level: '' };
type Values = typeof empty;

/** First message per field of a failed parse. */
function issuesByField(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const key = String(issue.path[0] ?? '');
    if (key && !out[key]) out[key] = issue.message;
  }
  return out;
}

/** Add a Post: checked with the same contract schema as the server before it is sent. */
export function PostForm() {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreatePost();

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = postCreateBody.safeParse(values);
    if (!parsed.success) {
      setErrors(issuesByField(parsed.error.issues));
      return;
    }
    create.mutate(parsed.data, {
      onSuccess: () => {
        notifySuccess(t('community.notices.postSubmitted'), t('community.notices.success'));
        setValues(empty);
        setErrors({});
      },
      onError: (err) => {
        if (err instanceof ApiError && err.status === 400) {
          setErrors(err.fields);
          notifyError(t('community.notices.fillAllFields'), t('community.notices.error'));
        } else {
          notifyError(errorMessage(err), t('community.notices.error'));
        }
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('community.addPost')}>
      <Stack gap="sm">
        <TextInput
          label={t('community.fields.title')}
          placeholder={t('community.fields.titlePlaceholder')}
          withAsterisk
          maxLength={POST_TITLE_MAX}
          value={values.title}
          onChange={(e) => set('title')(e.currentTarget.value)}
          error={errors.title}
        />
        <Textarea
          label={t('community.fields.content')}
          placeholder={t('community.fields.contentPlaceholder')}
          withAsterisk
          autosize
          minRows={4}
          maxRows={10}
          maxLength={POST_CONTENT_MAX}
          value={values.content}
          onChange={(e) => set('content')(e.currentTarget.value)}
          error={errors.content}
        />
        <Select
          label={t('community.fields.cropType')}
          withAsterisk
          data={cropOptions}
          value={values.crop_type || null}
          onChange={(v) => set('crop_type')(v ?? '')}
          error={errors.crop_type}
        />
        <Select
          label={t('community.fields.disease')}
          withAsterisk
          data={diseaseOptions}
          value={values.disease_type || null}
          onChange={(v) => set('disease_type')(v ?? '')}
          error={errors.disease_type}
        />
        <Select
          label={t('community.fields.urgencyLevel')}
          withAsterisk
          data={urgencyOptions}
          value={values.urgency_level || null}
          onChange={(v) => set('urgency_level')(v ?? '')}
          error={errors.urgency_level}
        />
        <Button type="submit" loading={create.isPending}>
          {t('community.actions.submit')}
        </Button>
      </Stack>
    </form>
  );
}

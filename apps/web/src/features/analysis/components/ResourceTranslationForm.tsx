import { Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  type EducationResource,
  educationResourceTranslationInput,
  type EducationResourceTranslationInput,
  type TranslationLanguage,
} from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { translateErrors } from '../../../lib/validation.ts';
import { useSaveTranslation } from '../../../api/analysis.ts';
import { useContractForm } from '../../../lib/contract-form.ts';

/**
 * An expert writes a resource's title and description in Kiswahili or Luganda. `resource` is read in
 * that language: when it is not translated yet it carries the English text, shown as a guide.
 */
export function ResourceTranslationForm({
  resource,
  language,
  languageName,
  onDone,
}: {
  resource: EducationResource;
  language: TranslationLanguage;
  languageName: string;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveTranslation();
  const translatedAlready = resource.language === language;
  const form = useContractForm<EducationResourceTranslationInput>(educationResourceTranslationInput, {
    initialValues: translatedAlready
      ? { title: resource.title, description: resource.description }
      : { title: '', description: '' },
  });
  const english = (text: string) => (translatedAlready ? undefined : t('analysis.manage.englishText', { text }));

  async function send(text: EducationResourceTranslationInput | null) {
    try {
      await save.mutateAsync({ id: resource.id, language, text });
      notifySuccess(t(text ? 'analysis.manage.translationSaved' : 'analysis.manage.translationRemoved'));
      onDone();
    } catch (err) {
      if (err instanceof ApiError) form.setErrors(translateErrors(err.fields));
      notifyError(errorMessage(err));
    }
  }

  return (
    <form onSubmit={form.onSubmit((values) => send(values))} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('analysis.manage.translationHint', { language: languageName })}
        </Text>
        <TextInput
          label={t('analysis.manage.fieldTitle')}
          description={english(resource.title)}
          required
          {...form.getInputProps('title')}
        />
        <Textarea
          label={t('analysis.manage.fieldDescription')}
          description={english(resource.description)}
          required
          autosize
          minRows={3}
          {...form.getInputProps('description')}
        />
        <Group justify="space-between">
          {translatedAlready ? (
            <Button variant="subtle" color="red" loading={save.isPending} onClick={() => void send(null)}>
              {t('analysis.manage.removeTranslation')}
            </Button>
          ) : (
            <span />
          )}
          <Group>
            <Button variant="default" onClick={onDone}>
              {t('analysis.common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('analysis.common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Input, Modal, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  type AnalysisCrop,
  analysisCrops,
  type ContentLanguage,
  contentLanguages,
  educationResourceInput,
  resourceTopics,
  type EducationResource,
  type EducationResourceInput,
  type ResourceTopic,
} from '@kutu/contract';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useResources, useRetireResource, useSaveResource } from '../../../api/analysis.ts';
import { topicMeta } from '../../../lib/diagnosis-labels.ts';
import { ListState } from '../../../components/ListState.tsx';
import { ListPagination } from '../../../components/ListPagination.tsx';
import { ResourceTranslationForm } from './ResourceTranslationForm.tsx';
import { ResourceRows } from './ResourceRows.tsx';
import { FittingSegmentedControl } from '../../../components/FittingSegmentedControl.tsx';
import { translateErrors, translateMessage } from '../../../lib/validation.ts';

const PAGE_SIZE = 20;

/** Each language by its own name, as language pickers show them (not translated). */
const languageNames: Record<ContentLanguage, string> = { en: 'English', sw: 'Kiswahili', lg: 'Luganda' };

function ResourceForm({
  topic,
  editing,
  onDone,
}: {
  topic: ResourceTopic;
  editing: EducationResource | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveResource();
  // The order is kept as typed (nothing lost on a bad number) and made a number when saved.
  const [values, setValues] = useState<Required<Omit<EducationResourceInput, 'position'>> & { position: string }>({
    rust_class: editing?.rust_class ?? topic,
    title: editing?.title ?? '',
    url: editing?.url ?? '',
    description: editing?.description ?? '',
    position: String(editing?.position ?? 0),
    link_language: editing?.link_language ?? 'en',
    crop: editing?.crop ?? null,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = <K extends keyof typeof values>(key: K, value: (typeof values)[K]) =>
    setValues((v) => ({ ...v, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = educationResourceInput.safeParse({ ...values, position: Number(values.position.trim() || 0) });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= translateMessage(issue.message);
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: editing?.id, body: parsed.data });
      notifySuccess(t(editing ? 'analysis.manage.updated' : 'analysis.manage.created'));
      onDone();
    } catch (err) {
      if (err instanceof ApiError) setErrors(translateErrors(err.fields));
      notifyError(errorMessage(err));
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        <FittingSegmentedControl
          value={values.rust_class}
          onChange={(v) => set('rust_class', v as ResourceTopic)}
          data={resourceTopics.map((v) => ({ value: v, label: t(topicMeta[v].labelKey) }))}
        />
        <TextInput
          label={t('analysis.manage.fieldTitle')}
          required
          value={values.title}
          error={errors.title}
          onChange={(e) => set('title', e.currentTarget.value)}
        />
        <TextInput
          label={t('analysis.manage.fieldUrl')}
          required
          placeholder="https://"
          value={values.url}
          error={errors.url}
          onChange={(e) => set('url', e.currentTarget.value)}
        />
        <Textarea
          label={t('analysis.manage.fieldDescription')}
          required
          autosize
          minRows={3}
          value={values.description}
          error={errors.description}
          onChange={(e) => set('description', e.currentTarget.value)}
        />
        <Input.Wrapper label={t('analysis.manage.fieldLinkLanguage')}>
          <FittingSegmentedControl
            display="flex"
            aria-label={t('analysis.manage.fieldLinkLanguage')}
            value={values.link_language}
            onChange={(v) => set('link_language', v as ContentLanguage)}
            data={contentLanguages.map((v) => ({ value: v, label: languageNames[v] }))}
          />
        </Input.Wrapper>
        <Input.Wrapper label={t('analysis.manage.fieldCrop')} description={t('analysis.manage.fieldCropHint')}>
          <FittingSegmentedControl
            display="flex"
            aria-label={t('analysis.manage.fieldCrop')}
            value={values.crop ?? 'any'}
            onChange={(v) => set('crop', v === 'any' ? null : (v as AnalysisCrop))}
            data={(['any', ...analysisCrops] as const).map((v) => ({
              value: v,
              label: t(v === 'any' ? 'analysis.manage.cropAny' : `review.crop.${v}`),
            }))}
          />
        </Input.Wrapper>
        <TextInput
          label={t('analysis.manage.fieldPosition')}
          description={t('analysis.manage.fieldPositionHint')}
          inputMode="numeric"
          value={values.position}
          error={errors.position}
          onChange={(e) => set('position', e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('analysis.common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {t('analysis.common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Experts: the resources of each class, with add, edit and retire. */
export function ResourceManager() {
  const { t } = useTranslation();
  const [topic, setTopic] = useState<ResourceTopic>('common_rust');
  const [includeRetired, setIncludeRetired] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<EducationResource | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const [confirming, setConfirming] = useState<EducationResource | null>(null);
  // English is the resource itself (the form edits it all); another language edits only its texts.
  const [textLanguage, setTextLanguage] = useState<ContentLanguage>('en');
  const [translating, setTranslating] = useState<EducationResource | null>(null);
  const list = useResources({ rustClass: topic, includeRetired, language: textLanguage, page, pageSize: PAGE_SIZE });
  const retire = useRetireResource();

  function openForm(resource: EducationResource | null) {
    setEditing(resource);
    setFormOpen(true);
  }
  const edit = (resource: EducationResource) => (textLanguage === 'en' ? openForm(resource) : setTranslating(resource));

  async function confirmRetire() {
    if (!confirming) return;
    try {
      await retire.mutateAsync(confirming.id);
      notifySuccess(t('analysis.manage.retired'));
      setConfirming(null);
    } catch (err) {
      notifyError(errorMessage(err));
    }
  }

  return (
    <Stack gap="md">
      <Text c="dimmed">{t('analysis.manage.intro')}</Text>
      <Input.Wrapper label={t('analysis.manage.textLanguage')}>
        <FittingSegmentedControl
          display="flex"
          aria-label={t('analysis.manage.textLanguage')}
          value={textLanguage}
          onChange={(v) => {
            setTextLanguage(v as ContentLanguage);
            setPage(1);
          }}
          data={contentLanguages.map((v) => ({ value: v, label: languageNames[v] }))}
        />
      </Input.Wrapper>
      <Group justify="space-between">
        <FittingSegmentedControl
          value={topic}
          onChange={(v) => {
            setTopic(v as ResourceTopic);
            setPage(1);
          }}
          data={resourceTopics.map((v) => ({ value: v, label: t(topicMeta[v].labelKey) }))}
        />
        <Group>
          <Switch
            label={t('analysis.manage.showRetired')}
            checked={includeRetired}
            onChange={(e) => {
              setIncludeRetired(e.currentTarget.checked);
              setPage(1);
            }}
          />
          <Button leftSection={<IconPlus size={18} />} onClick={() => openForm(null)}>
            {t('analysis.manage.add')}
          </Button>
        </Group>
      </Group>

      <ListState
        query={list}
        errorTitle={t('analysis.resources.loadFailed')}
        empty={list.data?.count === 0}
        emptyText={
          <Text c="dimmed" data-testid="resources-empty">
            {t('analysis.manage.empty')}
          </Text>
        }
      >
        <ResourceRows
          resources={list.data?.results ?? []}
          textLanguage={textLanguage}
          languageName={languageNames[textLanguage]}
          onEdit={edit}
          onRetire={setConfirming}
        />
        <ListPagination page={page} pageSize={PAGE_SIZE} count={list.data?.count ?? 0} onChange={setPage} />
      </ListState>

      <Modal
        opened={formOpen}
        onClose={() => setFormOpen(false)}
        title={t(editing ? 'analysis.manage.editTitle' : 'analysis.manage.addTitle')}
        size="lg"
      >
        {formOpen && !editing && textLanguage !== 'en' && (
          <Alert color="blue" mb="md" data-testid="add-in-english">
            {t('analysis.manage.addInEnglish', { language: languageNames[textLanguage] })}
          </Alert>
        )}
        {formOpen && (
          <ResourceForm key={editing?.id ?? 'new'} topic={topic} editing={editing} onDone={() => setFormOpen(false)} />
        )}
      </Modal>

      <Modal
        opened={translating !== null}
        onClose={() => setTranslating(null)}
        title={t('analysis.manage.translateTitle', { language: languageNames[textLanguage] })}
        size="lg"
      >
        {translating && textLanguage !== 'en' && (
          <ResourceTranslationForm
            key={`${translating.id}-${textLanguage}`}
            resource={translating}
            language={textLanguage}
            languageName={languageNames[textLanguage]}
            onDone={() => setTranslating(null)}
          />
        )}
      </Modal>

      <Modal opened={confirming !== null} onClose={() => setConfirming(null)} title={t('analysis.manage.retireTitle')}>
        <Stack>
          <Text size="sm">{t('analysis.manage.retireText', { title: confirming?.title ?? '' })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(null)}>
              {t('analysis.common.cancel')}
            </Button>
            <Button color="red" loading={retire.isPending} onClick={() => void confirmRetire()}>
              {t('analysis.manage.retire')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

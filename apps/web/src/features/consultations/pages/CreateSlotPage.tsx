import { useState, type FormEvent } from 'react';
import { Badge, Button, Grid, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { AvailabilitySlot } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import {
  ALL_ROWS,
  DataTable,
  DEFAULT_PAGE_SIZE,
  type DataTableColumn,
} from '../../../components/DataTable/DataTable.tsx';
import { ApiError, errorMessage } from '../../../lib/api.ts';
import { formatDateTime, viewerTimeZone } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { localInputToIso, useCreateSlot, useDeactivateSlot, useMySlots } from '../api/consultations.ts';

/** The API's largest page; "All" asks for this many. */
const SERVER_MAX_PAGE = 200;

/** Create Slot (expert): publish a time when farmers can book you, and manage published slots. */
export default function CreateSlotPage() {
  const { t } = useTranslation();
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const slots = useMySlots({ page, page_size: pageSize === ALL_ROWS ? SERVER_MAX_PAGE : pageSize });
  const create = useCreateSlot();
  const deactivate = useDeactivateSlot();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setFieldErrors({});
    create.mutate(
      { start_time: localInputToIso(start), end_time: localInputToIso(end) },
      {
        onSuccess: () => {
          notifySuccess(t('consultations.createSlot.created'));
          setStart('');
          setEnd('');
        },
        onError: (err) => {
          if (err instanceof ApiError && Object.keys(err.fields).length) setFieldErrors(err.fields);
          notifyError(errorMessage(err));
        },
      },
    );
  };

  const onDeactivate = (slot: AvailabilitySlot) =>
    deactivate.mutate(slot.id, {
      onSuccess: () => notifySuccess(t('consultations.createSlot.deactivated')),
      onError: (err) => notifyError(errorMessage(err)),
    });

  const columns: DataTableColumn<AvailabilitySlot>[] = [
    {
      key: 'start',
      header: t('consultations.createSlot.startTime'),
      value: (s) => new Date(s.start_time),
      render: (s) => formatDateTime(s.start_time),
      sortable: true,
      searchable: false,
    },
    {
      key: 'end',
      header: t('consultations.createSlot.endTime'),
      value: (s) => new Date(s.end_time),
      render: (s) => formatDateTime(s.end_time),
      sortable: true,
      searchable: false,
    },
    {
      key: 'availability',
      header: t('consultations.createSlot.availability'),
      value: (s) => t(s.is_active ? 'consultations.createSlot.active' : 'consultations.createSlot.inactive'),
      render: (s) => (
        <Badge color={s.is_active ? 'green' : 'gray'} variant="light">
          {t(s.is_active ? 'consultations.createSlot.active' : 'consultations.createSlot.inactive')}
        </Badge>
      ),
      sortable: true,
    },
    {
      key: 'booking',
      header: t('consultations.createSlot.bookingStatus'),
      value: (s) => t(s.is_booked ? 'consultations.createSlot.booked' : 'consultations.createSlot.notBooked'),
      render: (s) => (
        <Badge color={s.is_booked ? 'orange' : 'blue'} variant="light">
          {t(s.is_booked ? 'consultations.createSlot.booked' : 'consultations.createSlot.notBooked')}
        </Badge>
      ),
      sortable: true,
    },
    {
      key: 'actions',
      header: t('consultations.createSlot.actions'),
      searchable: false,
      render: (s) => (
        <Button
          size="xs"
          color="red"
          variant="light"
          disabled={!s.is_active || s.is_booked}
          title={s.is_booked ? t('consultations.createSlot.bookedHint') : undefined}
          loading={deactivate.isPending && deactivate.variables === s.id}
          onClick={() => onDeactivate(s)}
        >
          {t('consultations.createSlot.deactivate')}
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('consultations.createSlot.title')}
      </Title>
      <Grid>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate>
            <Stack>
              <Text size="sm" c="dimmed">
                {t('consultations.zoneHint', { zone: viewerTimeZone() })}
              </Text>
              <TextInput
                type="datetime-local"
                label={t('consultations.createSlot.start')}
                value={start}
                onChange={(e) => setStart(e.currentTarget.value)}
                error={fieldErrors.start_time}
                required
              />
              <TextInput
                type="datetime-local"
                label={t('consultations.createSlot.end')}
                value={end}
                onChange={(e) => setEnd(e.currentTarget.value)}
                error={fieldErrors.end_time}
                required
              />
              <Button type="submit" loading={create.isPending}>
                {t('consultations.createSlot.submit')}
              </Button>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <DataTable
            title={t('consultations.createSlot.tableTitle')}
            columns={columns}
            rows={slots.data?.results ?? []}
            rowKey={(s) => s.id}
            loading={slots.isFetching}
            error={slots.error ? errorMessage(slots.error) : null}
            emptyText={t('consultations.createSlot.empty')}
            selectable
            pagination={{
              page,
              pageSize,
              total: slots.data?.count ?? 0,
              onPageChange: setPage,
              onPageSizeChange: setPageSize,
              allSize: SERVER_MAX_PAGE,
            }}
          />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

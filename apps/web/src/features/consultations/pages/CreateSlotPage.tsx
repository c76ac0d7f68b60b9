import { lazy, useState } from 'react';
import { Badge, Button, Grid, Stack, Title } from '@mantine/core';
import type { AvailabilitySlot } from '@kutu/contract';
import { useTranslation } from 'react-i18next';
import {
  ALL_ROWS,
  DataTable,
  DEFAULT_PAGE_SIZE,
  type DataTableColumn,
} from '../../../components/DataTable/DataTable.tsx';
import { errorMessage } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeactivateSlot, useMySlots } from '../../../api/consultations.ts';
import { Deferred } from '../../../components/OnDemand.tsx';

// Weekly availability brings the contract's schemas (zod), the one-off slot the form library: they load
// just after the page.
const WeeklyAvailability = lazy(() => import('../components/WeeklyAvailability.tsx'));
const OneOffSlotForm = lazy(() => import('../components/OneOffSlotForm.tsx'));

/** The API's largest page; "All" asks for this many. */
const SERVER_MAX_PAGE = 200;

/** Create Slot (expert): publish a time when farmers can book you, and manage published slots. */
export default function CreateSlotPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const slots = useMySlots({ page, page_size: pageSize === ALL_ROWS ? SERVER_MAX_PAGE : pageSize });
  const deactivate = useDeactivateSlot();

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
      key: 'mode',
      header: t('consultations.mode.label'),
      value: (s) => t(`consultations.mode.${s.mode}`),
      sortable: true,
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
          <Stack>
            <Deferred>
              <WeeklyAvailability />
            </Deferred>
            <Deferred>
              <OneOffSlotForm />
            </Deferred>
          </Stack>
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

// With the page's chunk: its feature's strings (lib/locale-parts.ts `FEATURE_SECTIONS`); the router waits for them.
export { screenStringsReady } from '../../../lib/consultations-strings.ts';

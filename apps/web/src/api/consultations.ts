import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AvailabilityRuleCreated,
  AvailabilitySlot,
  Booking,
  BookSlotBody,
  CreateSlotBody,
  MessageReply,
  WeeklyAvailabilityBody,
  BookingPage,
  BookingStatus,
  ManageBookingBody,
  SlotPage,
  ExpertSlotsPage,
  availabilityRuleList,
} from '@kutu/contract';
import type { z } from 'zod';
import { consultationsApi } from '@kutu/contract/paths';
import { ApiError, http } from '../lib/api.ts';
import { session } from '../lib/session.ts';
import i18n from '../lib/i18n.ts';

/** Everything this feature caches sits under one key, so a change reloads every list. */
const root = ['consultations'] as const;

export interface PageParams {
  page: number;
  page_size: number;
}
export interface BookingParams extends PageParams {
  status?: BookingStatus;
}

export const mySlotsQuery = (p: PageParams) =>
  queryOptions({
    queryKey: [...root, 'slots', 'mine', p],
    queryFn: ({ signal }) => http.get<SlotPage>(consultationsApi.slots, { ...p }, signal),
    placeholderData: keepPreviousData,
  });

export const bookableSlotsQuery = (p: PageParams) =>
  queryOptions({
    queryKey: [...root, 'slots', 'all', p],
    queryFn: ({ signal }) => http.get<SlotPage>(consultationsApi.allSlots, { ...p }, signal),
    placeholderData: keepPreviousData,
  });

/** The same slots a page of experts at a time, each expert with all their slots (the farmers' list). */
export const slotsByExpertQuery = (p: PageParams) =>
  queryOptions({
    queryKey: [...root, 'slots', 'by-expert', p],
    queryFn: ({ signal }) => http.get<ExpertSlotsPage>(consultationsApi.slotsByExpert, { ...p }, signal),
    placeholderData: keepPreviousData,
  });

export const expertBookingsQuery = (p: BookingParams) =>
  queryOptions({
    queryKey: [...root, 'bookings', 'manage', p],
    queryFn: ({ signal }) => http.get<BookingPage>(consultationsApi.manageBookings, { ...p }, signal),
    placeholderData: keepPreviousData,
  });

export const myBookingsQuery = (p: BookingParams) =>
  queryOptions({
    queryKey: [...root, 'bookings', 'mine', p],
    queryFn: ({ signal }) => http.get<BookingPage>(consultationsApi.bookings, { ...p }, signal),
    placeholderData: keepPreviousData,
  });

export const rulesQuery = () =>
  queryOptions({
    queryKey: [...root, 'rules'],
    queryFn: ({ signal }) => http.get<z.infer<typeof availabilityRuleList>>(consultationsApi.rules, undefined, signal),
  });

export const useRules = () => useQuery(rulesQuery());
export const useMySlots = (p: PageParams) => useQuery(mySlotsQuery(p));
export const useBookableSlots = (p: PageParams) => useQuery(bookableSlotsQuery(p));
export const useSlotsByExpert = (p: PageParams) => useQuery(slotsByExpertQuery(p));
export const useExpertBookings = (p: BookingParams) => useQuery(expertBookingsQuery(p));
export const useMyBookings = (p: BookingParams) => useQuery(myBookingsQuery(p));

function useReloadingMutation<TBody, TReply>(fn: (body: TBody) => Promise<TReply>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => client.invalidateQueries({ queryKey: root }),
  });
}

/** Slot times go as ISO 8601 (UTC), converted from the viewer's local date-time input; empty stays empty. */
export const useCreateSlot = () =>
  useReloadingMutation((body: CreateSlotBody) => http.post<AvailabilitySlot>(consultationsApi.slots, body));
export const useCreateRule = () =>
  useReloadingMutation((body: WeeklyAvailabilityBody) =>
    http.post<AvailabilityRuleCreated>(consultationsApi.rules, body),
  );
export const useEndRule = () =>
  useReloadingMutation((id: number) => http.put<MessageReply>(consultationsApi.endRule(id)));
export const useCancelBooking = () =>
  useReloadingMutation(({ id, reason }: { id: number; reason?: string }) =>
    http.post<Booking>(consultationsApi.cancelBooking(id), { reason }),
  );
export const useDeactivateSlot = () =>
  useReloadingMutation((id: number) => http.put<AvailabilitySlot>(consultationsApi.endSlot(id)));
export const useBookSlot = () =>
  useReloadingMutation((body: BookSlotBody) => http.post<Booking>(consultationsApi.bookings, body));
export const useManageBooking = () =>
  useReloadingMutation((body: ManageBookingBody) => http.put<Booking>(consultationsApi.manageBookings, body));

async function fetchCalendar(id: number): Promise<Response> {
  const token = session.accessToken();
  return fetch(consultationsApi.bookingCalendar(id), {
    headers: { accept: 'text/calendar', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}

/**
 * Downloads an approved booking's .ics file with the bearer token and saves it. An expired access token
 * is renewed through the API client (one cheap authenticated call) and the download tried once more.
 */
export async function downloadCalendar(id: number): Promise<void> {
  let res = await fetchCalendar(id);
  if (res.status === 401) {
    await http.get(consultationsApi.bookings, { page: 1, page_size: 1 });
    res = await fetchCalendar(id);
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(
      res.status,
      body?.error?.code ?? 'HTTP_ERROR',
      body?.error?.message ?? i18n.t('shell.requestFailed', { status: res.status }),
    );
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `booking-${id}.ics`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A local `datetime-local` value ('2026-12-01T09:00') as ISO 8601; empty stays empty for the server to refuse. */
export function localInputToIso(value: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

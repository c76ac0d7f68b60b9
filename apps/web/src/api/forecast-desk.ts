import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ForecastHoldBody, ForecastScoreReply, PendingAdvisoriesReply } from '@kutu/contract';
import { forecastApi } from '@kutu/contract/forecast-paths';
import { http } from '../lib/api.ts';

/**
 * The forecast desk (decision 0128): the week's advisories by district before they go out, holds with a
 * reason, and a run now. Administrators and national officers; the server answers anyone else 403.
 */
const key = ['forecast-desk'] as const;

export const usePendingAdvisories = () =>
  useQuery({
    queryKey: [...key, 'pending'],
    queryFn: ({ signal }) => http.get<PendingAdvisoriesReply>(forecastApi.pending, undefined, signal),
    retry: false,
  });

/** How good the forecast has been (decision 0129). */
export const useForecastScore = () =>
  useQuery({
    queryKey: [...key, 'score'],
    queryFn: ({ signal }) => http.get<ForecastScoreReply>(forecastApi.score, undefined, signal),
    retry: false,
  });

function useDeskMutation<A, R>(fn: (a: A) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await client.invalidateQueries({ queryKey: key });
      await client.invalidateQueries({ queryKey: ['outbreak', 'forecast'] });
    },
  });
}

export const useHoldDistrict = () =>
  useDeskMutation((body: ForecastHoldBody) => http.post<{ id: number }>(forecastApi.holds, body));
export const useLiftHold = () =>
  useDeskMutation((id: number) => http.post<{ id: number; next_send_at: string }>(forecastApi.liftHoldPath(id)));
export const useRunForecast = () =>
  useDeskMutation(() => http.post<{ run_id: number; weather: 'known' | 'unknown' }>(forecastApi.run));
export const useSendNow = () => useDeskMutation(() => http.post<{ told: number }>(forecastApi.sendNow));

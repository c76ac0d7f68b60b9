import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DistrictForecastReply, FieldForecastReply, ForecastCrop, ForecastWeekReply } from '@kutu/contract';
import { forecastApi } from '@kutu/contract/forecast-paths';
import { http } from '../lib/api.ts';

/**
 * The week's rust forecast (decision 0100). Every district's week sits under the outbreak key and a
 * farmer's fields' under the fields key, so both are kept on the phone (lib/saved-queries.ts) and read offline.
 */
export const forecastWeekQuery = (crop: ForecastCrop) =>
  queryOptions({
    queryKey: ['outbreak', 'forecast', crop],
    queryFn: ({ signal }) => http.get<ForecastWeekReply>(forecastApi.week, { crop }, signal),
  });

/** One district's days with what each level rests on (kept on the phone with the week, same key root). */
export const districtForecastQuery = (code: string, crop: ForecastCrop) =>
  queryOptions({
    queryKey: ['outbreak', 'forecast', crop, 'district', code],
    queryFn: ({ signal }) => http.get<DistrictForecastReply>(forecastApi.districtPath(code), { crop }, signal),
  });

export const fieldForecastQuery = () =>
  queryOptions({
    queryKey: ['fields', 'forecast'],
    queryFn: ({ signal }) => http.get<FieldForecastReply>(forecastApi.myFields, undefined, signal),
  });

export const useForecastWeek = (crop: ForecastCrop) => useQuery(forecastWeekQuery(crop));
export const useFieldForecast = () => useQuery(fieldForecastQuery());
export const useDistrictForecast = (code: string, crop: ForecastCrop) => useQuery(districtForecastQuery(code, crop));

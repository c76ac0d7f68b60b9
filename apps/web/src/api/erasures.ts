import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ErasureList } from '@kutu/contract';
import { privacyApi } from '@kutu/contract/paths';
import { http } from '../lib/api.ts';

/** A page of the erasure log, newest first: when, the role, how it was asked, counts; nothing of the person. */
export const useErasures = (page: number, pageSize: number) =>
  useQuery({
    queryKey: ['erasures', page, pageSize],
    queryFn: ({ signal }) => http.get<ErasureList>(privacyApi.erasures, { page, page_size: pageSize }, signal),
    placeholderData: keepPreviousData,
  });

import type { Paginated, PageQuery } from '@kutu/contract';

export function pageWindow({ page, page_size }: PageQuery) {
  return { limit: page_size, offset: (page - 1) * page_size };
}

export function toPage<T>(results: T[], count: number, { page, page_size }: PageQuery): Paginated<T> {
  return {
    count,
    next: page * page_size < count ? page + 1 : null,
    previous: page > 1 ? page - 1 : null,
    results,
  };
}

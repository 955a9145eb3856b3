import type { Labelled } from './source.ts';

export interface ServiceTerm extends Labelled {
  readonly code: number;
  readonly key: string;
  /** Length in calendar months; null for lifelong. */
  readonly months: number | null;
}

/** Service-term codes (spec §3). The spec names them in this order without numbers; the codes are Carhere's. */
export const SERVICE_TERMS = [
  { code: 0, key: 'halfYear', months: 6, cn: '半年', en: 'Half a year' },
  { code: 1, key: 'oneYear', months: 12, cn: '一年', en: 'One year' },
  { code: 2, key: 'twoYears', months: 24, cn: '两年', en: 'Two years' },
  { code: 3, key: 'lifelong', months: null, cn: '终身', en: 'Lifelong' },
  { code: 4, key: 'oneMonth', months: 1, cn: '一个月', en: 'One month' },
  { code: 5, key: 'threeYears', months: 36, cn: '三年', en: 'Three years' },
] as const satisfies readonly ServiceTerm[];
export type ServiceTermCode = (typeof SERVICE_TERMS)[number]['code'];

export function serviceTerm(code: number | null | undefined): ServiceTerm | undefined {
  return SERVICE_TERMS.find((term) => term.code === code);
}

export function isServiceTermCode(value: unknown): value is ServiceTermCode {
  return serviceTerm(value as number) !== undefined;
}

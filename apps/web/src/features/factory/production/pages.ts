// The production screens for the factory shell's page registry (../pages.tsx): path below /test → screen.
import type { ComponentType } from 'react';

type Loader = () => Promise<{ default: ComponentType }>;

const from =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): Loader =>
  () =>
    load().then((m) => ({ default: m[name] as ComponentType }));

const stock = () => import('./StockPages.tsx');
const card = () => import('./CardPages.tsx');
const qc = () => import('./QcPages.tsx');

export const productionPages: Record<string, Loader> = {
  'stock/stockDevice': from(stock, 'StockDevicePage'),
  'stock/importImei': from(stock, 'ImportImeiPage'),
  'stock/importDevice': from(stock, 'ImportDevicePage'),
  'stock/Removal': from(stock, 'RemovalPage'),
  'card/cardSearch': from(card, 'CardSearchPage'),
  'card/cardClear': from(card, 'CardClearPage'),
  'qc/qcSearch': from(qc, 'QcSearchPage'),
  'qc/qcExport': from(qc, 'QcExportPage'),
  'exportSerialResult/serialResultManager': from(qc, 'SerialResultV1Page'),
  'exportSerialResult/serialResultManagerV2': from(qc, 'SerialResultV2Page'),
  'exportSerialResult/serialGPSResultManager': from(qc, 'SerialGpsResultPage'),
  'exportSerialResult/v1': from(qc, 'UploadV1Page'),
  'exportSerialResult/v2': from(qc, 'UploadV2Page'),
  'exportSerialResult/configList': from(qc, 'ConfigListPage'),
};

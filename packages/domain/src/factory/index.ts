export * from './qc.ts';
export * from './serials.ts';
export * from './stock.ts';
export * from './texts.ts';

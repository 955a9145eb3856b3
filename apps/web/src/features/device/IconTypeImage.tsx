// The image of each device icon type 1-12 (spec §3), drawn as small SVGs so they need no files.
import { ICON_TYPES } from '@carhere/domain';
import type { ReactNode } from 'react';

const wheel = (cx: number, cy = 18, r = 2.6) => <circle cx={cx} cy={cy} r={r} fill="#1f2937" />;

/** Shapes on a 32×24 canvas, side views. */
const SHAPES: Record<number, ReactNode> = {
  1: (
    <>
      <path d="M4 16l2-5c1-2 2-3 5-3h8c2 0 4 1 5 3l3 5v2H4z" fill="#2563eb" />
      <path d="M10 9h4v4H8zM16 9h3l2 4h-5z" fill="#dbeafe" />
      {wheel(9)}
      {wheel(23)}
    </>
  ),
  2: (
    <>
      <path d="M3 17V10c0-2 1-3 3-3h14l5 5h3v5z" fill="#0f766e" />
      <path d="M8 9h5v4H8zM15 9h4l3 4h-7z" fill="#ccfbf1" />
      {wheel(9)}
      {wheel(23)}
    </>
  ),
  3: (
    <>
      <path d="M2 6h17v11H2z" fill="#b45309" />
      <path d="M19 10h5l4 4v3h-9z" fill="#f59e0b" />
      <path d="M21 11h2v3h-2z" fill="#fef3c7" />
      {wheel(7)}
      {wheel(24)}
    </>
  ),
  4: (
    <>
      <path d="M2 6c0-1 1-2 2-2h22c2 0 4 2 4 4v9H2z" fill="#7c3aed" />
      <path d="M4 7h4v4H4zM10 7h4v4h-4zM16 7h4v4h-4zM22 7h4v4h-4z" fill="#ede9fe" />
      {wheel(8)}
      {wheel(24)}
    </>
  ),
  5: (
    <>
      <path d="M3 17V7c0-1 1-2 2-2h15c2 0 3 1 4 3l4 5v4z" fill="#475569" />
      <path d="M19 7h2l3 5h-5z" fill="#e2e8f0" />
      {wheel(9)}
      {wheel(23)}
    </>
  ),
  6: (
    <>
      <path d="M8 16l5-6h6l3 3h4l-3 3z" fill="#dc2626" />
      <path d="M17 8l3-3h3" stroke="#1f2937" strokeWidth="1.5" fill="none" />
      <circle cx="7" cy="17" r="4" fill="none" stroke="#1f2937" strokeWidth="2" />
      <circle cx="25" cy="17" r="4" fill="none" stroke="#1f2937" strokeWidth="2" />
    </>
  ),
  7: (
    <>
      <path d="M7 17h16M21 17l2-11h3" stroke="#16a34a" strokeWidth="2.5" fill="none" />
      <circle cx="7" cy="18" r="3" fill="#1f2937" />
      <circle cx="24" cy="18" r="3" fill="#1f2937" />
    </>
  ),
  8: (
    <>
      <circle cx="8" cy="16" r="5" fill="none" stroke="#1f2937" strokeWidth="2" />
      <circle cx="24" cy="16" r="5" fill="none" stroke="#1f2937" strokeWidth="2" />
      <path d="M8 16l5-8h8l3 8M13 8l3 8h-8" stroke="#ea580c" strokeWidth="2" fill="none" />
    </>
  ),
  9: (
    <>
      <circle cx="16" cy="5" r="3" fill="#0891b2" />
      <path d="M12 10h8l-1 7h-2l-1 5h0l-1-5h-2z" fill="#0891b2" />
    </>
  ),
  10: (
    <>
      <ellipse cx="16" cy="16" rx="5" ry="4" fill="#a16207" />
      <circle cx="9" cy="10" r="2.4" fill="#a16207" />
      <circle cx="14" cy="7" r="2.4" fill="#a16207" />
      <circle cx="19" cy="7" r="2.4" fill="#a16207" />
      <circle cx="24" cy="10" r="2.4" fill="#a16207" />
    </>
  ),
  11: (
    <>
      <path d="M3 14h26l-4 6H7z" fill="#1d4ed8" />
      <path d="M15 3v10h-8zM17 5l7 8h-7z" fill="#93c5fd" />
    </>
  ),
  12: (
    <>
      <path d="M16 22s7-7 7-12a7 7 0 0 0-14 0c0 5 7 12 7 12z" fill="#db2777" />
      <circle cx="16" cy="10" r="2.8" fill="#fff" />
    </>
  ),
};

export function IconTypeImage({ type, size = 32 }: { type: number; size?: number }) {
  return (
    <svg
      width={size}
      height={(size * 24) / 32}
      viewBox="0 0 32 24"
      role="img"
      aria-label={`icon ${type}`}
      data-icon-type={type}
    >
      {SHAPES[type] ?? SHAPES[12]}
    </svg>
  );
}

/** Options for an icon-type select: the image and its number. */
export function iconTypeOptions() {
  return ICON_TYPES.map((type) => ({
    value: type,
    label: (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
        <IconTypeImage type={type} size={28} />
        {type}
      </span>
    ),
  }));
}

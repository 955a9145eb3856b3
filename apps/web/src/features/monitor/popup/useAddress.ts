// The address of a position, looked up once per ~11 m and language (cached by src/map/geocode.ts).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reverseGeocode } from '../../../map/geocode.ts';

export type AddressState = { status: 'loading' } | { status: 'done'; address: string | null };

export function useAddress(lat: number | null, lon: number | null): AddressState {
  const { i18n } = useTranslation();
  const [state, setState] = useState<AddressState>({ status: 'loading' });
  const key = lat === null || lon === null ? null : `${lat.toFixed(4)},${lon.toFixed(4)}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: looked up again only when the rounded position changes
  useEffect(() => {
    if (lat === null || lon === null) {
      setState({ status: 'done', address: null });
      return;
    }
    let live = true;
    setState({ status: 'loading' });
    void reverseGeocode({ lat, lon }, i18n.language).then((address) => live && setState({ status: 'done', address }));
    return () => {
      live = false;
    };
  }, [key, i18n.language]);

  return state;
}

// A place search over the map (/api/map/getSuggestion; Hong Kong accounts search Hong Kong): choosing a
// place moves the map there, to draw a fence around it.
import { AutoComplete, Input } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useLeafletMap } from '../../map/mapContext.ts';

interface Suggestions {
  available: boolean;
  message: string | null;
  list: { name: string; address: string; lat: number | null; lon: number | null }[];
}

const DEBOUNCE_MS = 300;

export function PlaceSearch() {
  const { t } = useTranslation('fence');
  const map = useLeafletMap();
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<Suggestions | null>(null);
  const seq = useRef(0);

  useEffect(() => {
    const q = query.trim();
    if (q === '') {
      setAnswer(null);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      api<Suggestions>('/map/getSuggestion', { query: q })
        .then((a) => mine === seq.current && setAnswer(a))
        .catch(() => mine === seq.current && setAnswer(null));
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const places = (answer?.list ?? []).filter((p) => p.lat !== null && p.lon !== null);
  const options: { value: string; label: ReactNode; disabled?: boolean }[] =
    answer && !answer.available
      ? [{ value: '', label: answer.message ?? t('placeUnavailable'), disabled: true }]
      : places.map((p, i) => ({
          value: String(i),
          label: (
            <div>
              <div>{p.name}</div>
              <div style={{ fontSize: 12, color: '#999' }}>{p.address}</div>
            </div>
          ),
        }));

  return (
    <div style={{ position: 'absolute', top: 10, left: 56, zIndex: 1000 }}>
      <AutoComplete
        style={{ width: 260 }}
        options={options}
        onSearch={setQuery}
        onSelect={(value: string) => {
          const p = places[Number(value)];
          if (p && map) map.setView([p.lat as number, p.lon as number], Math.max(map.getZoom(), 15));
          setQuery('');
        }}
        value={query}
        onChange={setQuery}
      >
        <Input.Search placeholder={t('placeSearch')} allowClear data-testid="fence-place-search" />
      </AutoComplete>
    </div>
  );
}

// /index/track, track playback (main:track): up to 5 devices over up to 90 days; play, pause, 1×–32×, seek;
// stop points with durations; mileage; a speed chart under the map; xlsx and GPX downloads.
// Access check (spec §4): track playback is refused for inactive and expired devices; picking one, or arriving
// with one in the address, shows the spec's message and leaves it out of the query.

import { useQuery } from '@tanstack/react-query';
import { App as AntApp, Empty, Spin } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../auth/store.ts';
import { BaseMap } from '../../map/BaseMap.tsx';
import { userZone } from '../count/period.ts';
import { admitDevices } from '../monitor/access.ts';
import { findAllLocations, type Location } from '../monitor/api.ts';
import { useDeviceAccess } from '../monitor/useDeviceAccess.ts';
import { findTracks } from './api.ts';
import { PlaybackClock } from './data/playbackClock.ts';
import type { StopPoint } from './data/stops.ts';
import { trackFromAnswer } from './data/trackData.ts';
import { downloadBlob, trackFileName } from './export/download.ts';
import { gpxParts } from './export/gpx.ts';
import { FitTracks } from './map/FitTracks.tsx';
import { PlaybackCar } from './map/PlaybackCar.tsx';
import { StopPins } from './map/StopPins.tsx';
import { TrackLine } from './map/TrackLine.tsx';
import { PlaybackControls } from './panel/PlaybackControls.tsx';
import { presetRange } from './panel/rangePresets.ts';
import { SpeedChart } from './panel/SpeedChart.tsx';
import { TrackQueryBar } from './panel/TrackQueryBar.tsx';
import { TrackSummary } from './panel/TrackSummary.tsx';
import { type TrackView, trackView } from './trackView.ts';
import { validateTrackQuery } from './validateQuery.ts';

export default function TrackPage() {
  const { t } = useTranslation('track');
  const { t: tMonitor } = useTranslation('monitor');
  const { message } = AntApp.useApp();
  const { refuse } = useDeviceAccess();
  const [params] = useSearchParams();
  const preselected = params.get('terminalID');
  const [devices, setDevices] = useState<string[]>(preselected ? [preselected] : []);
  const zone = userZone(useAuth()?.userInfo.timeZone);
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => presetRange('lastHour', zone));
  const [loading, setLoading] = useState(false);
  const [views, setViews] = useState<TrackView[]>([]);
  const [active, setActive] = useState(0);
  const [clock] = useState(() => new PlaybackClock());
  const request = useRef<AbortController | null>(null);

  const locations = useQuery({ queryKey: ['locations', 'all'], queryFn: ({ signal }) => findAllLocations(signal) });
  const options = useMemo(
    () => (locations.data ?? []).map((l) => ({ value: l.terminalID, label: `${l.displayName} (${l.terminalID})` })),
    [locations.data],
  );
  const byTerminal = useMemo(
    () => new Map<string, Location>((locations.data ?? []).map((l) => [l.terminalID, l])),
    [locations.data],
  );
  const names = useMemo(() => new Map([...byTerminal].map(([id, l]) => [id, l.displayName])), [byTerminal]);
  /** The picks track playback may use; the first refusal is shown (a device not in the list: the server decides). */
  const admit = (ids: string[]): string[] => {
    const { allowed, refused } = admitDevices('track', ids, (id) => byTerminal.get(id), Date.now());
    if (refused) refuse(refused);
    return allowed;
  };
  const pickDevices = (ids: string[]) => setDevices(admit(ids));
  // Tracks are labelled by device name once the device list is known (it may arrive after the tracks).
  const named = useMemo(
    () => views.map((v) => ({ ...v, name: names.get(v.data.terminalID) ?? v.name })),
    [views, names],
  );

  const query = async (picked = devices, [from, to] = range) => {
    const ids = admit(picked);
    if (ids.length < picked.length) {
      setDevices(ids);
      return;
    }
    const problem = validateTrackQuery(ids.length, from.valueOf(), to.valueOf());
    if (problem) {
      message.warning(t(problem.key, 'params' in problem ? problem.params : {}));
      return;
    }
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    clock.pause();
    try {
      const answers = await findTracks(ids, from.valueOf(), to.valueOf(), controller.signal);
      const loaded = answers
        .map((a) => ({ answer: a, data: trackFromAnswer(a) }))
        .filter((x) => x.data.length > 0)
        .map((x, i) => trackView(x.data, x.answer.terminalID, i, x.answer.count));
      setViews(loaded);
      setActive(0);
      if (loaded.length === 0) message.warning(t('noTrack'));
      else if (loaded.some((v) => v.truncated)) message.warning(t('notLoaded'));
    } catch (err) {
      if (!controller.signal.aborted) message.error((err as Error).message);
    } finally {
      if (request.current === controller) setLoading(false);
    }
  };

  // Arriving from the monitoring page with a device: show its last hour straight away, once the device list
  // (with its state and expiry) has answered, so an inactive or expired device is refused, not queried.
  const started = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once for the device in the address
  useEffect(() => {
    if (!preselected || locations.isPending || started.current === preselected) return;
    started.current = preselected;
    void query([preselected]);
  }, [preselected, locations.isPending]);

  useEffect(() => () => request.current?.abort(), []);
  useEffect(() => () => clock.dispose(), [clock]);

  const current = views[active];
  useEffect(() => {
    clock.load(current?.data.length ?? 0);
  }, [clock, current]);

  const seekStop = (i: number, s: StopPoint) => {
    if (i !== active) setActive(i);
    clock.seek(s.firstIndex);
  };

  const notReady = () => {
    if (!loading) return false;
    message.warning(t('notLoaded'));
    return true;
  };

  const download = async (format: 'xlsx' | 'gpx') => {
    if (notReady() || views.length === 0) return;
    const tracks = named.map((v) => ({ name: v.name, track: v.data }));
    const fileName = trackFileName(
      named.map((v) => v.name),
      range[0].valueOf(),
      format,
    );
    try {
      if (format === 'gpx') {
        downloadBlob(new Blob(gpxParts(tracks), { type: 'application/gpx+xml' }), fileName);
      } else {
        const hide = message.loading(t('download.preparing'), 0);
        try {
          const { trackWorkbook } = await import('./export/xlsx.ts');
          const blob = await trackWorkbook(tracks, {
            time: t('columns.time'),
            lat: t('columns.lat'),
            lon: t('columns.lon'),
            speed: t('columns.speed'),
            heading: t('columns.heading'),
            mileage: t('columns.mileage'),
            headingName: (h) => tMonitor(`heading.${h}`),
          });
          downloadBlob(blob, fileName);
        } finally {
          hide();
        }
      }
    } catch (err) {
      message.error((err as Error).message);
    }
  };

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%' }} data-testid="track-page">
      <div style={{ padding: '10px 12px', borderBottom: '1px solid #f0f0f0', background: '#fff' }}>
        <TrackQueryBar
          options={options}
          optionsLoading={locations.isLoading}
          devices={devices}
          onDevices={pickDevices}
          range={range}
          onRange={setRange}
          zone={zone}
          loading={loading}
          onQuery={() => void query()}
          canDownload={views.length > 0}
          onDownload={(f) => void download(f)}
        />
      </div>
      <div style={{ flex: 1, minHeight: 0, display: 'flex' }}>
        <div style={{ flex: 1, minWidth: 0, position: 'relative' }}>
          {loading && (
            <div
              style={{
                position: 'absolute',
                inset: 0,
                zIndex: 1002,
                display: 'grid',
                placeItems: 'center',
                background: 'rgba(255,255,255,.4)',
              }}
            >
              <Spin />
            </div>
          )}
          <BaseMap>
            {views.map((v) => (
              <TrackLine key={`${v.data.deviceId}-${v.data.times[0]}`} view={v} />
            ))}
            {views.map((v, i) => (
              <StopPins key={`stops-${v.data.deviceId}-${v.data.times[0]}`} view={v} onStop={(s) => seekStop(i, s)} />
            ))}
            <FitTracks views={views} />
            {current && <PlaybackCar view={current} clock={clock} follow />}
          </BaseMap>
        </div>
        {views.length > 0 && (
          <div
            style={{ width: 280, flex: 'none', overflow: 'auto', borderLeft: '1px solid #f0f0f0', background: '#fff' }}
          >
            <TrackSummary
              views={named}
              activeIndex={active}
              onActivate={setActive}
              onStop={(v, s) => seekStop(named.indexOf(v), s)}
            />
          </div>
        )}
      </div>
      <div style={{ borderTop: '1px solid #f0f0f0', background: '#fff', padding: '8px 12px' }}>
        {current ? (
          <>
            <PlaybackControls track={current.data} clock={clock} onNotReady={notReady} />
            <SpeedChart track={current.data} clock={clock} color={current.color} />
          </>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('empty')} style={{ margin: 8 }} />
        )}
      </div>
    </div>
  );
}

// GPX 1.1 of tracks (one <trk> per device), WGS-84 as GPX requires. Built in chunks so a 777,600-fix track
// does not create one giant intermediate string per fix.
import type { TrackData } from '../data/trackData.ts';

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] as string,
  );
}

export interface GpxTrack {
  name: string;
  track: TrackData;
}

/** The GPX document as string parts (hand them to a Blob). */
export function gpxParts(tracks: readonly GpxTrack[], creator = 'Carhere'): string[] {
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    `<gpx version="1.1" creator="${escapeXml(creator)}" xmlns="http://www.topografix.com/GPX/1/1">\n`,
  ];
  for (const { name, track } of tracks) {
    parts.push(`<trk><name>${escapeXml(name)}</name><trkseg>\n`);
    let chunk = '';
    for (let i = 0; i < track.length; i++) {
      chunk += `<trkpt lat="${track.lats[i].toFixed(6)}" lon="${track.lons[i].toFixed(6)}"><time>${new Date(track.times[i]).toISOString()}</time><extensions><speed>${(track.speeds[i] / 3.6).toFixed(2)}</speed><course>${Math.round(track.courses[i])}</course></extensions></trkpt>\n`;
      if (chunk.length > 65_536) {
        parts.push(chunk);
        chunk = '';
      }
    }
    parts.push(chunk, '</trkseg></trk>\n');
  }
  parts.push('</gpx>\n');
  return parts;
}

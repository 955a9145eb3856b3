// A vehicle moving like one in a city: it drives along a heading that bends gently, speeds up and slows down,
// stops now and then (traffic lights, parking), and turns back towards its home area when it strays too far.

export interface Fix {
  /** Epoch milliseconds. */
  time: number;
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  /** degrees, 0 = north */
  course: number;
  altitude: number;
  satellites: number;
  /** Odometer, metres. */
  mileage: number;
  acc: boolean;
  /** Battery level %. */
  battery: number;
  /**
   * A battery pack (BMS) report, sent by JT/T 808 devices as location item 0xEF (packages/protocols README
   * "Battery packs"): V, A (+ charging), %, °C, cycles, fault bits (bit n: alarm 50 + n).
   */
  batteryPack?: {
    voltage: number;
    current: number;
    percentage: number;
    temperature: number;
    useCount: number;
    faults: number;
  };
}

export interface TrackOptions {
  centerLat: number;
  centerLon: number;
  /** Keep within this many km of the centre. */
  radiusKm: number;
  /** Top cruising speed, km/h. */
  maxSpeed: number;
  /** Random generator in [0, 1); pass a seeded one for repeatable tracks. */
  random?: () => number;
  startTime?: number;
}

const KM_PER_DEG_LAT = 111.32;

/** A small, fast seeded generator (mulberry32) so simulated fleets are repeatable. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class VehicleTrack {
  private readonly random: () => number;
  private lat: number;
  private lon: number;
  private heading: number;
  private speed = 0;
  private targetSpeed: number;
  private stopLeft = 0;
  private mileage = 0;
  private battery: number;
  private time: number;

  constructor(private readonly o: TrackOptions) {
    this.random = o.random ?? Math.random;
    const r = o.radiusKm * Math.sqrt(this.random()) * 0.7;
    const a = this.random() * 2 * Math.PI;
    this.lat = o.centerLat + (r * Math.cos(a)) / KM_PER_DEG_LAT;
    this.lon = o.centerLon + (r * Math.sin(a)) / (KM_PER_DEG_LAT * Math.cos((o.centerLat * Math.PI) / 180));
    this.heading = this.random() * 360;
    this.targetSpeed = o.maxSpeed * (0.3 + 0.7 * this.random());
    this.battery = 60 + Math.floor(this.random() * 40);
    // Trackers report whole seconds.
    this.time = Math.floor((o.startTime ?? Date.now()) / 1000) * 1000;
  }

  /** Advances by `seconds` and returns the new fix. */
  next(seconds: number): Fix {
    const rnd = this.random;
    this.time += Math.round(seconds * 1000);
    if (this.stopLeft > 0) {
      this.stopLeft -= seconds;
      this.speed = 0;
    } else {
      if (rnd() < 0.01 * seconds) {
        this.stopLeft = 10 + rnd() * 90;
        this.speed = 0;
      } else {
        if (rnd() < 0.05 * seconds) this.targetSpeed = this.o.maxSpeed * (0.2 + 0.8 * rnd());
        const step = Math.min(seconds * 8, Math.abs(this.targetSpeed - this.speed));
        this.speed += Math.sign(this.targetSpeed - this.speed) * step;
        this.heading = (this.heading + (rnd() - 0.5) * 30 * Math.min(1, seconds / 5) + 360) % 360;
        this.steerHome();
        const km = (this.speed * seconds) / 3600;
        const rad = (this.heading * Math.PI) / 180;
        this.lat += (km * Math.cos(rad)) / KM_PER_DEG_LAT;
        this.lon += (km * Math.sin(rad)) / (KM_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180));
        this.mileage += km * 1000;
      }
    }
    if (rnd() < 0.002 * seconds) this.battery = Math.max(5, this.battery - 1);
    return {
      time: this.time,
      lat: this.lat,
      lon: this.lon,
      speed: Math.round(this.speed),
      course: Math.round(this.heading) % 360,
      altitude: 40 + Math.round(rnd() * 20),
      satellites: 6 + Math.floor(rnd() * 7),
      mileage: Math.round(this.mileage),
      acc: this.stopLeft <= 0 || this.speed > 0,
      battery: this.battery,
    };
  }

  private steerHome(): void {
    const dLat = (this.o.centerLat - this.lat) * KM_PER_DEG_LAT;
    const dLon = (this.o.centerLon - this.lon) * KM_PER_DEG_LAT * Math.cos((this.lat * Math.PI) / 180);
    const distance = Math.hypot(dLat, dLon);
    if (distance < this.o.radiusKm) return;
    const home = ((Math.atan2(dLon, dLat) * 180) / Math.PI + 360) % 360;
    const diff = ((home - this.heading + 540) % 360) - 180;
    this.heading = (this.heading + diff * 0.5 + 360) % 360;
  }
}

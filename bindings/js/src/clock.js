// The `clock` import: the system's time, or a fixed instant for tests. Timestamps are
// written as the Rust host writes them (chrono's `to_rfc3339_opts(AutoSi, false)`):
// UTC with a `+00:00` offset, and 0, 3, 6 or 9 fractional digits, as few as are exact.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * An instant: whole seconds since the epoch and nanoseconds within the second.
 * @typedef {{ secs: number, nanos: number }} Instant
 */

/**
 * Parses an RFC 3339 time, keeping nanoseconds; refuses years outside 1970..9899 as the
 * Rust host does (a hundred years of expiry must still be writable).
 * @param {string} text
 * @returns {Instant}
 */
export function parseRfc3339(text) {
  const m = RFC3339.exec(String(text));
  const bad = (why) =>
    new Error(`${JSON.stringify(text)} is not an RFC 3339 time (${why}); for example 2026-03-01T12:00:00Z`);
  if (!m) throw bad("invalid format");
  const [, y, mo, d, h, mi, s, frac, off] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  const ms = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 60) {
    throw bad("out of range");
  }
  let offset = 0;
  if (off !== "Z" && off !== "z") {
    const sign = off[0] === "-" ? -1 : 1;
    offset = sign * (Number(off.slice(1, 3)) * 3600 + Number(off.slice(4, 6)) * 60);
  }
  const nanos = frac ? Number((frac + "000000000").slice(0, 9)) : 0;
  const secs = ms / 1000 + (second === 60 ? 1 : 0) - offset;
  const utcYear = new Date(secs * 1000).getUTCFullYear();
  if (utcYear < 1970 || utcYear > 9899) throw new Error(`${JSON.stringify(text)} is outside the years 1970 to 9899`);
  return { secs, nanos };
}

/**
 * Formats an instant as the `clock` interface returns it.
 * @param {Instant} t
 */
export function formatRfc3339(t) {
  const base = new Date(t.secs * 1000).toISOString().slice(0, 19);
  let frac = "";
  if (t.nanos !== 0) {
    const digits = String(t.nanos).padStart(9, "0");
    frac = "." + (t.nanos % 1e6 === 0 ? digits.slice(0, 3) : t.nanos % 1e3 === 0 ? digits.slice(0, 6) : digits);
  }
  return `${base}${frac}+00:00`;
}

// Wall-clock nanoseconds from a monotonic counter anchored once to Date.now(), for
// sub-millisecond timestamps.
const anchorNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** The system's time now. @returns {Instant} */
export function systemNow() {
  const ns = anchorNs + process.hrtime.bigint();
  return { secs: Number(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) };
}

/**
 * A Date as an instant, within the years RFC 3339 text is: an invalid Date would fail
 * only inside a call, and a year out of range would write timestamps Rust cannot read.
 * @param {Date} d
 * @returns {Instant}
 */
function fromDate(d) {
  const ms = d.getTime();
  if (!Number.isFinite(ms)) throw new Error("the Date is invalid; for example new Date(\"2026-03-01T12:00:00Z\")");
  const year = d.getUTCFullYear();
  if (year < 1970 || year > 9899) throw new Error(`${d.toISOString()} is outside the years 1970 to 9899`);
  const secs = Math.floor(ms / 1000);
  return { secs, nanos: (ms - secs * 1000) * 1e6 };
}

/** Where "now" comes from: the system clock, or a fixed instant that may be changed. */
export class Clock {
  /** @param {string | Date | undefined | null} [fixed] an RFC 3339 time or a Date to fix */
  constructor(fixed) {
    this.set(fixed);
  }

  /**
   * Fixes the clock at an instant, or (with nothing) returns it to the system clock.
   * @param {string | Date | undefined | null} fixed
   */
  set(fixed) {
    if (fixed === undefined || fixed === null) this.fixed = null;
    else if (fixed instanceof Date) this.fixed = fromDate(fixed);
    else this.fixed = parseRfc3339(fixed);
  }

  /** Now, as an RFC 3339 timestamp. */
  nowRfc3339() {
    return formatRfc3339(this.fixed ?? systemNow());
  }
}

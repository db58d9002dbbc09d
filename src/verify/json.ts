// An address verification as the API and its webhook write it: the row's fields under their
// public names, the reason in words, and where a key with the tracking scope reads the trail.
const iso = (d: Date | string | null) => (d === null ? null : d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const DAY = 86_400_000;

/** Why a verification left pending, in words (the code is `reason`). */
export const REASONS: Record<string, string> = {
  enough_nights: 'The device dwelt at the pin on enough distinct nights.',
  not_enough_nights: 'Pings arrived in the window, but not enough nights were spent at the pin.',
  no_pings: 'No ping from the device arrived in the window: nothing is concluded.',
  agent_at_pin: 'The agent visit was within the radius of the pin.',
  visit_far_from_pin: 'The agent visit was farther from the pin than the radius.',
  visit_fix_imprecise: "The agent visit's GPS fix was too imprecise to place it at the pin.",
  no_visit: 'No agent visit was submitted within the window.',
  cancelled_by_caller: 'Cancelled through the API.',
};

export function verificationJson(r: any, o: { trail: boolean; visits?: any[] }) {
  const windowDays = Math.round((new Date(r.window_end).getTime() - new Date(r.window_start).getTime()) / DAY);
  const out: Record<string, unknown> = {
    id: r.id,
    object: 'address_verification',
    livemode: !r.sandbox,
    product: r.product,
    status: r.status,
    reason: r.reason,
    reason_message: r.reason ? REASONS[r.reason] ?? null : null,
    subject_id: r.subject_id,
    device: r.device,
    external_ref: r.external_ref,
    address: { text: r.address, components: r.components, country: r.country, resolution: r.resolution },
    pin: { lat: r.pin_lat, lng: r.pin_lng },
    parameters: {
      window_days: windowDays, radius_m: r.radius_m, timezone: r.timezone,
      ...(r.product === 'digital' ? { min_nights: r.min_nights } : {}),
    },
    window: { start: iso(r.window_start), end: iso(r.window_end) },
    consent: { given: true, at: iso(r.consent_at) },
    evidence: r.evidence,
    confidence: r.confidence,
    completed_at: iso(r.completed_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
  if (o.visits) out.visits = o.visits.map(visitJson);
  // The raw trail stays behind the tracking scope: a key holding it gets where to read it.
  if (o.trail && r.product === 'digital' && r.device) {
    const until = r.completed_at && new Date(r.completed_at) < new Date(r.window_end) ? r.completed_at : r.window_end;
    out.trail_url = `/api/v1/track/${encodeURIComponent(r.device)}?trail=1&since=${encodeURIComponent(iso(r.window_start)!)}&until=${encodeURIComponent(iso(until)!)}`;
  }
  return out;
}

export const visitJson = (v: any) => ({
  seq: v.seq, photo_url: v.photo_url, lat: v.lat, lng: v.lng, accuracy_m: v.accuracy_m, visited_at: iso(v.visited_at),
  agent: v.agent, notes: v.notes, distance_m: v.distance_m, accepted: v.accepted, created_at: iso(v.created_at),
});

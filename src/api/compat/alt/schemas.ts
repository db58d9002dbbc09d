// JSON Schemas of the platform's response shapes as we answer them (OpenAPI, and the tests
// validate every answer against them).
import type { Schema } from '../../../http/declaration.ts';
import { STATUSES } from './envelope.ts';

const num = { type: 'number' };
const str = { type: 'string' };
const strs = { type: 'array', items: str };

export const latLng: Schema = { type: 'object', required: ['lat', 'lng'], properties: { lat: num, lng: num } };
export const bounds: Schema = { type: 'object', required: ['northeast', 'southwest'], properties: { northeast: latLng, southwest: latLng } };
export const textValue: Schema = { type: 'object', required: ['text', 'value'], properties: { text: str, value: num } };

const status: Schema = { type: 'string', enum: [...STATUSES] };

/** The envelope: status, optional error_message, our fields under svc, the result containers. */
export function envelope(required: string[], properties: Record<string, Schema>): Schema {
  return {
    type: 'object',
    required: ['status', ...required],
    properties: { status, error_message: str, svc: { type: 'object' }, ...properties },
  };
}

export const addressComponent: Schema = {
  type: 'object', required: ['long_name', 'short_name', 'types'],
  properties: { long_name: str, short_name: str, types: strs },
};

export const geocodeResult: Schema = {
  type: 'object',
  required: ['address_components', 'formatted_address', 'geometry', 'place_id', 'types'],
  properties: {
    address_components: { type: 'array', items: addressComponent },
    formatted_address: str,
    geometry: {
      type: 'object', required: ['location', 'location_type', 'viewport'],
      properties: { location: latLng, location_type: { enum: ['ROOFTOP', 'RANGE_INTERPOLATED', 'GEOMETRIC_CENTER', 'APPROXIMATE'] }, viewport: bounds },
    },
    place_id: { type: 'string', pattern: '^svc:' },
    types: strs,
    partial_match: { type: 'boolean' },
  },
};

export const placeResult: Schema = {
  type: 'object',
  required: ['name', 'geometry', 'place_id', 'types'],
  properties: {
    name: str,
    geometry: { type: 'object', required: ['location'], properties: { location: latLng, viewport: bounds } },
    place_id: { type: 'string', pattern: '^svc:' },
    types: strs,
    vicinity: str,
    formatted_address: str,
    address_components: { type: 'array', items: addressComponent },
    business_status: str,
  },
};

const substring: Schema = { type: 'object', required: ['length', 'offset'], properties: { length: { type: 'integer' }, offset: { type: 'integer' } } };

export const prediction: Schema = {
  type: 'object',
  required: ['description', 'place_id', 'matched_substrings', 'structured_formatting', 'terms', 'types'],
  properties: {
    description: str,
    place_id: { type: 'string', pattern: '^svc:' },
    matched_substrings: { type: 'array', items: substring },
    structured_formatting: {
      type: 'object', required: ['main_text', 'main_text_matched_substrings'],
      properties: { main_text: str, main_text_matched_substrings: { type: 'array', items: substring }, secondary_text: str },
    },
    terms: { type: 'array', items: { type: 'object', required: ['offset', 'value'], properties: { offset: { type: 'integer' }, value: str } } },
    types: strs,
    distance_meters: { type: 'integer' },
  },
};

export const step: Schema = {
  type: 'object',
  required: ['distance', 'duration', 'start_location', 'end_location', 'html_instructions', 'polyline', 'travel_mode'],
  properties: {
    distance: textValue, duration: textValue, start_location: latLng, end_location: latLng,
    html_instructions: str, maneuver: str, polyline: { type: 'object', required: ['points'], properties: { points: str } }, travel_mode: str,
  },
};

export const leg: Schema = {
  type: 'object',
  required: ['distance', 'duration', 'start_address', 'end_address', 'start_location', 'end_location', 'steps', 'via_waypoint'],
  properties: {
    distance: textValue, duration: textValue, start_address: str, end_address: str, start_location: latLng, end_location: latLng,
    steps: { type: 'array', items: step }, via_waypoint: { type: 'array' }, traffic_speed_entry: { type: 'array' },
  },
};

export const route: Schema = {
  type: 'object',
  required: ['bounds', 'copyrights', 'legs', 'overview_polyline', 'summary', 'warnings', 'waypoint_order'],
  properties: {
    bounds, copyrights: str, legs: { type: 'array', items: leg },
    overview_polyline: { type: 'object', required: ['points'], properties: { points: str } },
    summary: str, warnings: strs, waypoint_order: { type: 'array', items: { type: 'integer' } },
  },
};

export const geocodedWaypoint: Schema = {
  type: 'object', required: ['geocoder_status'],
  properties: { geocoder_status: { enum: ['OK', 'ZERO_RESULTS'] }, place_id: str, types: strs, partial_match: { type: 'boolean' } },
};

export const matrixElement: Schema = {
  type: 'object', required: ['status'],
  properties: { status: { enum: ['OK', 'NOT_FOUND', 'ZERO_RESULTS'] }, distance: textValue, duration: textValue },
};

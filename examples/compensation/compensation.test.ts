import { describe, expect, it } from 'vitest';
import { cancelledTrip, replannedTrip } from './trip-undo.js';

describe('examples/compensation', () => {
  it('a cancelled run undoes the flight it booked; the hotel that failed has nothing to undo', async () => {
    const { result, steps, undone, stillBooked } = await cancelledTrip();
    expect(result.status).toBe('aborted');
    expect(steps).toEqual([
      'Book the flight to Lisbon: booked TP1350 (R1)',
      'Book the hotel: Error: tool "book_hotel" failed: Hotel Avenida is full',
    ]);
    expect(undone).toEqual([expect.stringMatching(/^undone {2}book_flight TP1350: cancelled R1 \(call_\d+:compensate\)$/)]);
    expect(result.compensation?.undone.map((c) => c.tool)).toEqual(['book_flight']);
    expect(stillBooked).toEqual([]);
  });

  it('a replan that drops the far hotel undoes it and keeps the rest', async () => {
    const { result, undone, stillBooked } = await replannedTrip();
    expect(result.status).toBe('completed');
    expect(result.output).toBe('Booked: booked TP1350 (R1); booked Hotel Baixa (R3), 1 km from the venue.');
    expect(undone).toEqual([expect.stringMatching(/^undone {2}book_hotel Hotel Sintra: cancelled R2 /)]);
    expect(stillBooked).toEqual(['flight TP1350', 'hotel Hotel Baixa']);
  });
});

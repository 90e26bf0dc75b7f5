import { tool } from '@replan/core';
import { z } from 'zod';
import { defineDomain } from '../domain.js';
import { DomainRuleError } from './oracle-kit.js';

export interface Flight {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly date: string;
  readonly fare: 'basic' | 'flex';
  readonly price: number;
  seats: number;
}
export interface Booking {
  readonly id: string;
  flightId: string;
  readonly passenger: string;
  status: 'booked' | 'cancelled';
  paid: number;
  refund?: number;
}
export interface TravelDb {
  readonly flights: Record<string, Flight>;
  readonly bookings: Record<string, Booking>;
  nextBooking: number;
}

const flight = (
  id: string,
  from: string,
  to: string,
  date: string,
  fare: Flight['fare'],
  price: number,
  seats: number,
): [string, Flight] => [id, { id, from, to, date, fare, price, seats }];
const booking = (id: string, passenger: string, flightId: string, paid: number): [string, Booking] => [
  id,
  { id, passenger, flightId, status: 'booked', paid },
];

function travelDb(): TravelDb {
  return {
    flights: Object.fromEntries([
      flight('TP101', 'LIS', 'OPO', '2026-12-03', 'basic', 49, 0),
      flight('TP103', 'LIS', 'OPO', '2026-12-03', 'basic', 39, 4),
      flight('TP105', 'LIS', 'OPO', '2026-12-03', 'flex', 89, 9),
      flight('TP107', 'LIS', 'OPO', '2026-12-04', 'basic', 35, 2),
      flight('IB201', 'LIS', 'MAD', '2026-12-05', 'basic', 59, 5),
      flight('IB203', 'LIS', 'MAD', '2026-12-05', 'flex', 99, 3),
      flight('IB205', 'MAD', 'LIS', '2026-12-09', 'basic', 55, 5),
      flight('TP111', 'OPO', 'LIS', '2026-12-07', 'flex', 79, 6),
      flight('TP113', 'OPO', 'LIS', '2026-12-07', 'basic', 45, 0),
    ]),
    bookings: Object.fromEntries([
      booking('B0001', 'Ada Lovelace', 'TP105', 89),
      booking('B0002', 'Alan Turing', 'TP103', 39),
      booking('B0003', 'Grace Hopper', 'IB201', 59),
    ]),
    nextBooking: 1001,
  };
}

function flightOf(db: TravelDb, id: string): Flight {
  const f = db.flights[id];
  if (!f || !Object.hasOwn(db.flights, id)) throw new DomainRuleError(`There is no flight ${id}.`);
  return f;
}
function bookingOf(db: TravelDb, id: string): Booking {
  const b = db.bookings[id];
  if (!b || !Object.hasOwn(db.bookings, id)) throw new DomainRuleError(`There is no booking ${id}.`);
  return b;
}

function travelTools(db: TravelDb) {
  return [
    tool({
      name: 'search_flights',
      description: 'Flights from one airport to another on a date (IATA codes, YYYY-MM-DD), cheapest first, with the seats left.',
      parameters: z.object({ from: z.string(), to: z.string(), date: z.string() }),
      execute: ({ from, to, date }) =>
        Object.values(db.flights)
          .filter((f) => f.from === from && f.to === to && f.date === date)
          .sort((a, b) => a.price - b.price)
          .map((f) => ({ flightId: f.id, fare: f.fare, price: f.price, seatsLeft: f.seats })),
    }),
    tool({
      name: 'get_booking',
      description: 'A booking with its flight.',
      parameters: z.object({ bookingId: z.string() }),
      execute: ({ bookingId }) => {
        const b = bookingOf(db, bookingId);
        return { ...b, flight: flightOf(db, b.flightId) };
      },
    }),
    tool({
      name: 'book_flight',
      description: 'Books one passenger on a flight (asks the customer for approval first). Returns the booking id.',
      parameters: z.object({ flightId: z.string(), passenger: z.string() }),
      needsApproval: true,
      execute: ({ flightId, passenger }) => {
        const f = flightOf(db, flightId);
        if (f.seats < 1) throw new DomainRuleError(`${flightId} is sold out.`);
        f.seats -= 1;
        const id = `B${db.nextBooking++}`;
        db.bookings[id] = { id, flightId, passenger, status: 'booked', paid: f.price };
        return { bookingId: id, flightId, passenger, paid: f.price };
      },
    }),
    tool({
      name: 'change_booking',
      description: 'Moves a flex-fare booking to another flight on the same route; returns the fare difference (negative: refunded).',
      parameters: z.object({ bookingId: z.string(), flightId: z.string() }),
      execute: ({ bookingId, flightId }) => {
        const b = bookingOf(db, bookingId);
        if (b.status !== 'booked') throw new DomainRuleError(`Booking ${bookingId} is ${b.status}.`);
        const from = flightOf(db, b.flightId);
        const to = flightOf(db, flightId);
        if (from.fare === 'basic') throw new DomainRuleError(`Policy: booking ${bookingId} has a basic fare, which cannot be changed.`);
        if (to.from !== from.from || to.to !== from.to)
          throw new DomainRuleError(`${flightId} is not on the route ${from.from}–${from.to}.`);
        if (to.seats < 1) throw new DomainRuleError(`${flightId} is sold out.`);
        from.seats += 1;
        to.seats -= 1;
        const fareDifference = to.price - b.paid;
        b.flightId = flightId;
        b.paid = to.price;
        return { bookingId, flightId, fareDifference };
      },
    }),
    tool({
      name: 'cancel_booking',
      description: 'Cancels a booking; returns the refund (flex fares in full, basic fares nothing).',
      parameters: z.object({ bookingId: z.string() }),
      execute: ({ bookingId }) => {
        const b = bookingOf(db, bookingId);
        if (b.status !== 'booked') throw new DomainRuleError(`Booking ${bookingId} is already ${b.status}.`);
        const f = flightOf(db, b.flightId);
        b.status = 'cancelled';
        b.refund = f.fare === 'flex' ? b.paid : 0;
        f.seats += 1;
        return { bookingId, refund: b.refund };
      },
    }),
  ];
}

export const travelDomain = defineDomain<TravelDb>({
  name: 'travel',
  db: travelDb,
  tools: travelTools,
  policy: [
    'You are a travel agent. Book only what the customer asked for; the booking tool asks the customer to approve each booking.',
    'Basic fares cannot be changed and are not refunded when cancelled. Flex fares can be moved to another flight on the same route (the fare difference is paid or refunded) and are refunded in full when cancelled.',
    'Never book a sold-out flight. Tell the customer the booking ids, flights and amounts, and say plainly when something was not done and why.',
  ].join('\n'),
});

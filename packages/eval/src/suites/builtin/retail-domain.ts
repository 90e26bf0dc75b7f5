import { tool } from '@replan/core';
import { z } from 'zod';
import { defineDomain } from '../domain.js';
import { DomainRuleError } from './oracle-kit.js';

export interface Product {
  readonly sku: string;
  readonly name: string;
  readonly price: number;
  stock: number;
  readonly finalSale?: boolean;
}
export interface OrderLine {
  readonly sku: string;
  readonly qty: number;
  readonly price: number;
  returned: number;
}
export interface Order {
  readonly id: string;
  readonly customer: string;
  status: 'processing' | 'delivered' | 'cancelled';
  /** Days since delivery (delivered orders). */
  readonly deliveredDaysAgo?: number;
  readonly lines: OrderLine[];
  refund?: number;
}
export interface ReturnRecord {
  readonly id: string;
  readonly orderId: string;
  readonly items: readonly { readonly sku: string; readonly qty: number }[];
  readonly refund: number;
}
export interface ExchangeRecord {
  readonly id: string;
  readonly orderId: string;
  readonly sku: string;
  readonly newSku: string;
}
export interface RetailDb {
  readonly products: Record<string, Product>;
  readonly orders: Record<string, Order>;
  readonly returns: ReturnRecord[];
  readonly exchanges: ExchangeRecord[];
}

const RETURN_DAYS = 30;
const product = (sku: string, name: string, price: number, stock: number, finalSale = false): [string, Product] => [
  sku,
  { sku, name, price, stock, ...(finalSale ? { finalSale } : {}) },
];
const line = (sku: string, qty: number, price: number, returned = 0): OrderLine => ({ sku, qty, price, returned });
const order = (id: string, customer: string, status: Order['status'], lines: OrderLine[], deliveredDaysAgo?: number): [string, Order] => [
  id,
  { id, customer, status, lines, ...(deliveredDaysAgo !== undefined ? { deliveredDaysAgo } : {}) },
];

function retailDb(): RetailDb {
  return {
    products: Object.fromEntries([
      product('TSHIRT-M', 'T-shirt, size M', 20, 5),
      product('TSHIRT-L', 'T-shirt, size L', 20, 0),
      product('TSHIRT-XL', 'T-shirt, size XL', 20, 3),
      product('MUG', 'Mug', 12, 10),
      product('LAMP', 'Desk lamp', 45, 2),
      product('LAMP-BLUE', 'Desk lamp, blue', 45, 0),
      product('HEADPHONES', 'Headphones', 99, 4),
      product('SOCKS', 'Socks (final sale)', 8, 20, true),
      product('JACKET-M', 'Jacket, size M', 120, 1),
      product('JACKET-L', 'Jacket, size L', 120, 2),
      product('SCARF', 'Scarf', 25, 3),
    ]),
    orders: Object.fromEntries([
      order('O100', 'maria@example.com', 'delivered', [line('TSHIRT-M', 2, 20), line('MUG', 1, 12)], 10),
      order('O101', 'maria@example.com', 'delivered', [line('LAMP', 1, 45)], 45),
      order('O102', 'li@example.com', 'delivered', [line('SOCKS', 3, 8), line('HEADPHONES', 1, 99)], 5),
      order('O103', 'li@example.com', 'processing', [line('JACKET-M', 1, 120), line('SCARF', 1, 25)]),
      order('O104', 'sam@example.com', 'delivered', [line('LAMP', 1, 45), line('MUG', 2, 12)], 3),
      order('O105', 'sam@example.com', 'delivered', [line('JACKET-M', 1, 120)], 20),
      order('O106', 'kim@example.com', 'delivered', [line('JACKET-M', 1, 120, 1)], 8),
    ]),
    returns: [],
    exchanges: [],
  };
}

const has = <T>(record: Record<string, T>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

function orderOf(db: RetailDb, id: string): Order {
  const o = has(db.orders, id);
  if (!o) throw new DomainRuleError(`There is no order ${id}.`);
  return o;
}
function productOf(db: RetailDb, sku: string): Product {
  const p = has(db.products, sku);
  if (!p) throw new DomainRuleError(`There is no product ${sku}.`);
  return p;
}
/** The policy's checks for returning or exchanging from an order. */
function returnable(db: RetailDb, o: Order, sku: string, what: string): OrderLine {
  if (o.status !== 'delivered') throw new DomainRuleError(`Policy: order ${o.id} is ${o.status}; only delivered orders can be ${what}.`);
  if ((o.deliveredDaysAgo ?? 0) > RETURN_DAYS)
    throw new DomainRuleError(
      `Policy: order ${o.id} was delivered ${o.deliveredDaysAgo} days ago; items can be ${what} within ${RETURN_DAYS} days.`,
    );
  const l = o.lines.find((x) => x.sku === sku);
  if (!l) throw new DomainRuleError(`Order ${o.id} has no ${sku}.`);
  if (productOf(db, sku).finalSale) throw new DomainRuleError(`Policy: ${sku} is a final sale item and cannot be ${what}.`);
  return l;
}

function retailTools(db: RetailDb) {
  return [
    tool({
      name: 'find_orders',
      description: "A customer's orders (by email), most recent first.",
      parameters: z.object({ customer: z.string() }),
      execute: ({ customer }) =>
        Object.values(db.orders)
          .filter((o) => o.customer === customer)
          .sort((a, b) => (a.deliveredDaysAgo ?? -1) - (b.deliveredDaysAgo ?? -1))
          .map((o) => ({ orderId: o.id, status: o.status, deliveredDaysAgo: o.deliveredDaysAgo ?? null })),
    }),
    tool({
      name: 'get_order',
      description:
        'An order: status, days since delivery, and each line (sku, name, quantity, price, quantity already returned, final sale).',
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => {
        const o = orderOf(db, orderId);
        return {
          ...o,
          lines: o.lines.map((l) => ({ ...l, name: productOf(db, l.sku).name, finalSale: productOf(db, l.sku).finalSale === true })),
        };
      },
    }),
    tool({
      name: 'check_stock',
      description: 'Stock and price of a product.',
      parameters: z.object({ sku: z.string() }),
      execute: ({ sku }) => {
        const p = productOf(db, sku);
        return { sku, name: p.name, stock: p.stock, price: p.price };
      },
    }),
    tool({
      name: 'return_items',
      description: 'Returns items of a delivered order (refunded to the original payment). Returns the return id and the refund.',
      parameters: z.object({ orderId: z.string(), items: z.array(z.object({ sku: z.string(), qty: z.number().int().positive() })).min(1) }),
      execute: ({ orderId, items }) => {
        const o = orderOf(db, orderId);
        const lines = items.map((i) => {
          const l = returnable(db, o, i.sku, 'returned');
          if (i.qty > l.qty - l.returned)
            throw new DomainRuleError(
              `Order ${orderId}: ${l.qty - l.returned} of ${i.sku} left to return (${l.returned} already returned), not ${i.qty}.`,
            );
          return { l, qty: i.qty };
        });
        let refund = 0;
        for (const { l, qty } of lines) {
          l.returned += qty;
          productOf(db, l.sku).stock += qty;
          refund += qty * l.price;
        }
        const id = `R${db.returns.length + 1}`;
        db.returns.push({ id, orderId, items: items.map((i) => ({ sku: i.sku, qty: i.qty })), refund });
        return { returnId: id, refund };
      },
    }),
    tool({
      name: 'exchange_item',
      description: 'Exchanges one unit of an item of a delivered order for another product of the same price that is in stock.',
      parameters: z.object({ orderId: z.string(), sku: z.string(), newSku: z.string() }),
      execute: ({ orderId, sku, newSku }) => {
        const o = orderOf(db, orderId);
        const l = returnable(db, o, sku, 'exchanged');
        if (l.returned >= l.qty) throw new DomainRuleError(`Order ${orderId}: every ${sku} was already returned.`);
        const next = productOf(db, newSku);
        if (next.price !== l.price)
          throw new DomainRuleError(`Policy: an exchange must be for the same price (${sku} ${l.price}, ${newSku} ${next.price}).`);
        if (next.stock < 1) throw new DomainRuleError(`${newSku} is out of stock.`);
        next.stock -= 1;
        productOf(db, sku).stock += 1;
        l.returned += 1;
        const id = `X${db.exchanges.length + 1}`;
        db.exchanges.push({ id, orderId, sku, newSku });
        return { exchangeId: id, orderId, sku, newSku };
      },
    }),
    tool({
      name: 'cancel_order',
      description: 'Cancels an order that is still processing, refunding it in full.',
      parameters: z.object({ orderId: z.string() }),
      execute: ({ orderId }) => {
        const o = orderOf(db, orderId);
        if (o.status !== 'processing')
          throw new DomainRuleError(`Policy: order ${orderId} is ${o.status}; only processing orders can be cancelled.`);
        o.status = 'cancelled';
        o.refund = o.lines.reduce((sum, l) => sum + l.qty * l.price, 0);
        for (const l of o.lines) productOf(db, l.sku).stock += l.qty;
        return { orderId, refund: o.refund };
      },
    }),
  ];
}

export const retailDomain = defineDomain<RetailDb>({
  name: 'retail',
  db: retailDb,
  tools: retailTools,
  policy: [
    'You are a customer service agent for an online shop.',
    `Returns and exchanges: delivered orders only, within ${RETURN_DAYS} days of delivery; final sale items can be neither returned nor exchanged.`,
    'An exchange is for another product of the same price that is in stock. Orders still processing can be cancelled in full; delivered orders cannot be cancelled (offer a return).',
    'Refunds go to the original payment. Tell the customer the amounts, and say plainly what was not done and why.',
  ].join('\n'),
});

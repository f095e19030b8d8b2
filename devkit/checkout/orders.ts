/** One order of the demo shop: what the customer pays and the text on their Pix statement. */
export interface Order {
  id: string;
  description: string;
  amountCents: number;
}

/**
 * The shop's orders, held by the backend: the page sends an order id and nothing else about the price, so a
 * customer who edits the page or its requests still pays what the order costs.
 */
export const demoOrder: Order = {
  id: 'order-1234',
  description: 'Pedido 1234: café especial 250 g',
  amountCents: 12_345,
};

const orders: Order[] = [demoOrder];

export function findOrder(id: string): Order | undefined {
  return orders.find((order) => order.id === id);
}

import type { MessageReceipt } from '../api/types.js';
import type { Context } from '../context.js';
import type { Column } from '../output/render.js';

const RECEIPT_COLUMNS: Column<MessageReceipt>[] = [
  { header: 'id', value: (receipt) => receipt.id },
  {
    header: 'status',
    value: (receipt) => receipt.status,
    tone: (receipt) => (receipt.status === 'queued' ? 'warn' : undefined),
  },
  { header: 'createdAt', value: (receipt) => receipt.createdAt },
];

export async function runMessageSend(ctx: Context, message: string): Promise<void> {
  const client = await ctx.client();
  const receipt = await client.sendMessage(message);
  await ctx.render(receipt, RECEIPT_COLUMNS);
  if (receipt.status === 'queued') {
    ctx.notice(`Message ${receipt.id} is queued: accepted by the service, not yet delivered.`);
  }
  if (ctx.io.stderrIsTTY) {
    const target = await ctx.target();
    ctx.notice(`Sent with profile ${target.profile}.`);
  }
}

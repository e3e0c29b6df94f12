-- billing subgraph: one auto-recharge per fall under the threshold. A
-- recharge's credit opens a new credit epoch, which named a new try: with a
-- threshold far above the amount ($500 and $20) every charge after a credit
-- that left the wallet under the threshold recharged again. Set when an
-- auto-recharge's credit leaves the effective balance under the threshold;
-- cleared when a credit leaves it at or above the threshold, and by a change
-- of the user's (settings, a new card).
alter table wallets add column auto_recharge_awaiting_rise boolean not null default false;

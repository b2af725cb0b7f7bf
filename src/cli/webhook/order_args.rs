//! `--order` and `--seed`, for the commands that deliver several events.
use crate::webhook::order::{DeliveryOrder, OrderOptions};

#[derive(Debug, Clone, clap::Args)]
pub struct OrderArgs {
    /// The order the deliveries go out in (receivers must cope with any: providers promise none)
    #[arg(long, value_enum, default_value_t = DeliveryOrder::AsIs, help_heading = "Order")]
    pub order: DeliveryOrder,

    /// With --order shuffle: the shuffle's seed, to repeat an order [default: a random one, printed]
    #[arg(long, value_name = "N", requires = "order", help_heading = "Order")]
    pub seed: Option<u64>,
}

impl OrderArgs {
    pub(crate) fn into_options(self) -> anyhow::Result<OrderOptions> {
        if self.seed.is_some() && self.order != DeliveryOrder::Shuffle {
            anyhow::bail!("--seed goes with --order shuffle");
        }
        Ok(OrderOptions { order: self.order, seed: self.seed })
    }
}

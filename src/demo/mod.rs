//! `idem demo`: the whole story on a fresh machine, told in chapters against in-process reference
//! servers. Each chapter is a file; a chapter returns whether what it showed went as expected.
mod check;
mod flow;
mod lost_answer;
mod narrator;
mod race;
mod retries;
mod two_callers;
mod two_instances;
mod webhooks;

use narrator::Narrator;

use crate::exit::Outcome;
use crate::output::Palette;

#[derive(Debug, Clone, Copy)]
pub(crate) struct DemoConfig {
    pub palette: Palette,
}

pub(crate) async fn run(config: DemoConfig) -> anyhow::Result<Outcome> {
    let mut narrator = Narrator::new(config.palette);
    narrator.say(&config.palette.bold("idem demo: does a retried POST charge twice?"))?;
    narrator.say("Everything below runs on this machine: reference payment servers on free loopback ports.")?;
    let outcome = retries::run(&mut narrator).await?;
    let outcome = outcome.and(race::run(&mut narrator).await?);
    let outcome = outcome.and(check::run(&mut narrator).await?);
    let outcome = outcome.and(webhooks::run(&mut narrator).await?);
    let outcome = outcome.and(lost_answer::run(&mut narrator).await?);
    let outcome = outcome.and(two_instances::run(&mut narrator).await?);
    let outcome = outcome.and(two_callers::run(&mut narrator).await?);
    let outcome = outcome.and(flow::run(&mut narrator).await?);
    narrator.heading("Your turn")?;
    narrator.say("Point the same commands at your own API:")?;
    narrator.command(
        "idem send https://api.example.com/v1/payments -H 'Authorization: Bearer …' -d @payment.json --repeat 3",
    )?;
    narrator.command(
        "idem race https://api.example.com/v1/payments -H 'Authorization: Bearer …' -d @payment.json -n 20 --rounds 10",
    )?;
    narrator
        .command("idem check https://api.example.com/v1/payments -d @payment.json --format junit > idem-check.xml")?;
    narrator.command(
        "idem proxy --upstream https://staging.example.com -k -- ./pay.sh   # does your client keep its key?",
    )?;
    narrator.say("And at your webhook receiver, or in front of it while you build it:")?;
    narrator.command("webhook check https://app.example.com/webhooks --scheme stripe --secret-file whsec.txt")?;
    narrator.command(
        "webhook listen --scheme stripe --secret-file whsec.txt --record deliveries.jsonl --forward-to http://127.0.0.1:3000/webhooks",
    )?;
    narrator.say(
        "Or practise against the reference server: `idem serve` (add `--mode naive` or `--mode none` to see the bugs).",
    )?;
    if outcome == Outcome::ProblemFound {
        narrator
            .say(&config.palette.red("The demo did not go as expected: a reference server misbehaved (see above)."))?;
    }
    Ok(outcome)
}

//! `idem demo` tells its story to the end on a machine with nothing else running.
use predicates::prelude::*;

use crate::support::idem;

#[test]
fn the_demo_runs_to_completion_and_shows_both_outcomes() {
    idem()
        .arg("demo")
        .assert()
        .success()
        .stdout(predicate::str::contains("charged once"))
        .stdout(predicate::str::contains("executed 3 times"))
        .stdout(predicate::str::contains("executed 10 times"))
        .stdout(predicate::str::contains("every required check passed"))
        .stdout(predicate::str::contains("FAIL concurrent-once"))
        .stdout(predicate::str::contains("FAIL retry-replays"))
        .stdout(predicate::str::contains("attempt 2/5  200 OK"))
        .stdout(predicate::str::contains("acknowledged as a duplicate"))
        .stdout(predicate::str::contains("401 Unauthorized"))
        .stdout(predicate::str::contains("Bob received Alice's payment pay_"))
        .stdout(predicate::str::contains("Bob got his own payment pay_"))
        .stdout(predicate::str::contains("Only the payment step failed, by its race"))
        .stdout(predicate::str::contains("Your turn"));
}

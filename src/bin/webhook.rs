// mimalloc: the listener and the race engine allocate per request; glibc's malloc showed as ~15% of
// `webhook listen`'s CPU under load.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(idem::webhook_main());
}

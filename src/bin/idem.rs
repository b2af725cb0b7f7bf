// mimalloc: the listener and the race engine allocate per request; glibc's malloc showed as ~15% of
// `webhook listen`'s CPU under load. See `idem::allocator` for how it is called.
#[global_allocator]
static ALLOCATOR: idem::allocator::Allocator = idem::allocator::Allocator;

fn main() {
    std::process::exit(idem::idem_main());
}

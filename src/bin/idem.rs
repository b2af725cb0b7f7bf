fn main() {
    std::process::exit(idem::exit::guard(idem::cli::idem::main));
}

fn main() {
    std::process::exit(idem::cli::webhook::main());
}

use elicit_core::Elicit;

#[derive(Elicit)]
enum Pick<T> {
    A,
    B,
    #[allow(dead_code)]
    _Marker(std::marker::PhantomData<T>),
}

fn main() {}

//! The generator's parameters: [`RoomsParams`] with its defaults, the
//! limits on each and `validate`, which checks them before anything is drawn.

use crate::tiles::TilesError;

/// The largest `width` or `height` accepted, in cells.
pub const MAX_SIDE: u32 = 4096;
/// The most rooms accepted (placement costs up to
/// `rooms² × placement_tries` rectangle tests).
pub const MAX_ROOMS: u32 = 1024;
/// The most corridors sent from each room.
pub const MAX_CORRIDORS: u32 = 16;
/// The most placement tries per room.
pub const MAX_PLACEMENT_TRIES: u32 = 1000;

/// The parameters of [`generate`](super::generate), named as the CLI
/// names them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomsParams {
    /// Map columns (`w`), `5 × min_room_size ..= 4096`. Default 80.
    pub width: u32,
    /// Map rows (`h`), `5 × min_room_size ..= 4096`. Default 50.
    pub height: u32,
    /// Rooms to place (`roomN`), `1 ..= 1024`; a room that finds no
    /// place is skipped. Default 10.
    pub rooms: u32,
    /// Corridors sent from each room to random other rooms (`corridorN`),
    /// `0 ..= 16`; a pair already joined is not joined again.
    /// Default 1.
    pub corridors: u32,
    /// Random sizes and positions tried per room before it is skipped,
    /// `1 ..= 1000`. Default 100.
    pub placement_tries: u32,
    /// The smallest room side in cells, `1 ..=` `min(width, height) / 5`.
    /// Default 3.
    pub min_room_size: u32,
}

impl Default for RoomsParams {
    /// 80 × 50 cells, 10 rooms, 1 corridor per room, 100 tries, rooms of
    /// 3 × 3 to 16 × 10 cells.
    fn default() -> Self {
        RoomsParams {
            width: 80,
            height: 50,
            rooms: 10,
            corridors: 1,
            placement_tries: 100,
            min_room_size: 3,
        }
    }
}

impl RoomsParams {
    /// Checks every parameter against its range.
    ///
    /// # Errors
    ///
    /// [`TilesError::Parameter`] naming the first parameter out of range:
    /// `width`, `height` (above [`MAX_SIDE`], or too small for a room of
    /// `min_room_size` within `width/5 × height/5`), `min_room_size` (0),
    /// `rooms` (0 or above [`MAX_ROOMS`]), `corridors` (above
    /// [`MAX_CORRIDORS`]), `placement_tries` (0 or above
    /// [`MAX_PLACEMENT_TRIES`]).
    pub fn validate(&self) -> Result<(), TilesError> {
        if self.min_room_size == 0 || self.min_room_size > MAX_SIDE / 5 {
            return Err(TilesError::parameter(
                "min_room_size",
                format!(
                    "is {}; the smallest room side must be 1 to {} cells",
                    self.min_room_size,
                    MAX_SIDE / 5
                ),
            ));
        }
        let least = 5 * self.min_room_size;
        for (field, side) in [("width", self.width), ("height", self.height)] {
            if side > MAX_SIDE {
                return Err(TilesError::parameter(
                    field,
                    format!("is {side}; at most {MAX_SIDE} cells are accepted"),
                ));
            }
            if side < least {
                return Err(TilesError::parameter(
                    field,
                    format!(
                        "is {side}; rooms are at most {field}/5 cells across and at least \
                         min_room_size = {} cells, so {field} must be at least {least}",
                        self.min_room_size
                    ),
                ));
            }
        }
        if self.rooms == 0 || self.rooms > MAX_ROOMS {
            return Err(TilesError::parameter(
                "rooms",
                format!("is {}; 1 to {MAX_ROOMS} rooms are accepted", self.rooms),
            ));
        }
        if self.corridors > MAX_CORRIDORS {
            return Err(TilesError::parameter(
                "corridors",
                format!(
                    "is {}; 0 to {MAX_CORRIDORS} corridors per room are accepted",
                    self.corridors
                ),
            ));
        }
        if self.placement_tries == 0 || self.placement_tries > MAX_PLACEMENT_TRIES {
            return Err(TilesError::parameter(
                "placement_tries",
                format!(
                    "is {}; 1 to {MAX_PLACEMENT_TRIES} tries per room are accepted",
                    self.placement_tries
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_parameters_name_their_field() {
        let field = |p: RoomsParams| match p.validate() {
            Err(TilesError::Parameter { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        let d = RoomsParams::default;
        assert_eq!(field(RoomsParams { width: 0, ..d() }), "width");
        assert_eq!(field(RoomsParams { width: 14, ..d() }), "width");
        assert_eq!(field(RoomsParams { width: 4097, ..d() }), "width");
        assert_eq!(field(RoomsParams { height: 0, ..d() }), "height");
        assert_eq!(
            field(RoomsParams {
                height: u32::MAX,
                ..d()
            }),
            "height"
        );
        assert_eq!(
            field(RoomsParams {
                min_room_size: 0,
                ..d()
            }),
            "min_room_size"
        );
        assert_eq!(
            field(RoomsParams {
                min_room_size: u32::MAX,
                ..d()
            }),
            "min_room_size"
        );
        assert_eq!(field(RoomsParams { rooms: 0, ..d() }), "rooms");
        assert_eq!(field(RoomsParams { rooms: 1025, ..d() }), "rooms");
        assert_eq!(
            field(RoomsParams {
                corridors: 17,
                ..d()
            }),
            "corridors"
        );
        assert_eq!(
            field(RoomsParams {
                placement_tries: 0,
                ..d()
            }),
            "placement_tries"
        );
        assert!(RoomsParams {
            width: 15,
            height: 15,
            ..d()
        }
        .validate()
        .is_ok());
        assert!(RoomsParams {
            width: 4096,
            height: 4096,
            ..d()
        }
        .validate()
        .is_ok());
    }
}

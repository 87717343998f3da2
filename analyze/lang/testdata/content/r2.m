#import <F.h>
@interface A
@end
